package main

import (
	"fmt"
	"io"
	"os"
)

// Exit codes of every subcommand.
const (
	exitOK         = 0
	exitUsage      = 1 // bad usage or bad input; the message names the flag
	exitUnreliable = 2 // server unreachable, failed, or the answer is incomplete
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: flights <command> [flags]

commands:
  search    search a search server for trips (flights search --help)
  generate  write flight data files, one CSV per seller (flights generate --help)
`

// run is the whole command, apart from the process: it returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "search":
		return runSearch(args[1:], stdout, stderr)
	case "generate":
		return runGenerate(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return exitOK
	default:
		fmt.Fprintf(stderr, "flights: unknown command %q\n%s", args[0], usage)
		return exitUsage
	}
}
