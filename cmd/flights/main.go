package main

import (
	"fmt"
	"io"
	"os"
)

// Exit codes of every subcommand.
const (
	exitOK         = 0
	exitUsage      = 1 // bad usage or bad input (the message names the flag), or the server refused
	exitUnreliable = 2 // server unreachable, failed, or the answer is incomplete
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: flights <command> [flags]

commands:
  search    search a search server for trips (flights search --help)
  book      book seats on a flight or a connection (flights book --help)
  booking   print a booking (flights booking --help)
  cancel    cancel a booking (flights cancel --help)
  confirm   confirm a held booking (flights confirm --help)
  seats     print a flight's seats: for sale, booked, left (flights seats --help)
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
	case "book":
		return runBook(args[1:], stdout, stderr)
	case "booking":
		return runOnBooking(opBooking, args[1:], stdout, stderr)
	case "cancel":
		return runOnBooking(opCancel, args[1:], stdout, stderr)
	case "confirm":
		return runOnBooking(opConfirm, args[1:], stdout, stderr)
	case "seats":
		return runSeats(args[1:], stdout, stderr)
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
