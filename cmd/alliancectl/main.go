package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
)

// Exit codes of every command.
const (
	exitOK      = 0
	exitUsage   = 1 // bad usage; the message names the flag or argument
	exitFailure = 2 // the command could not do what it was asked; the message says why
)

const usage = `usage: alliancectl <command> [flags]     (every command takes --help; --dir DIR, default var/run)

  keys [--out DIR] [--alliances star,oneworld] [--machines N] [--hosts 127.0.0.1,localhost]
       [--host NAME=h1,h2 ...] [--force]
                         make a CA, a certificate per machine, the search server and alliancectl,
                         a token per alliance and the search server's trust file (default DIR/keys);
                         --host gives a process its own names; DIR/hosts/NAME/ is what to ship to
                         each host (the CA's key stays in DIR)
  up N [--alliances K] [--sellers-per-machine S] [--zones Z] [--replicas K] [--search 127.0.0.1:8080] [--insecure]
                         start a search server and K alliances of N machines, wait until a search
                         answers complete, print what to try, and exit (processes keep running);
                         HTTPS and tokens with the keys of DIR/keys (made when missing) unless --insecure
  run                    up 3 in the foreground; Ctrl-C or SIGTERM stops every process (make run)
  down                   stop every recorded process: SIGTERM, SIGKILL after --timeout
  status                 processes, delegate, who holds which seller, quorum (from GET /status)
  kill NAME              SIGKILL a machine (or the search server)
  pause NAME             SIGSTOP it;  resume NAME: SIGCONT it
  restart NAME           start it again with the same command line (stopping it first if it runs)
  add NAME --seller CODE [--alliance A]
                         start a new machine that joins the running alliance with --join
  leave NAME             SIGTERM a machine (it hands its sellers over) and wait until it exits
  replicas K [--alliance A]
                         change the copies of every seller live (1 to 5); waits until every
                         running machine re-placed
  load --rate R --for D  steady open-loop searches; complete/incomplete/errors and latency percentiles
  partition NAME         cut a machine off the others (needs the proxies up starts by default)
  heal                   end every partition

An alliance running anywhere (no state.json needed): status, replicas and backup take
  --endpoints https://m1:2379,...  the etcd client URLs of the alliance's machines, or
  --search https://host:8443       the search server (its registrations name the delegates),
  with --keys DIR (ca.crt, alliancectl.crt, alliancectl.key: keys' DIR/hosts/alliancectl) or
  --cacert F [--cert F --key F], and --alliance A; load takes --search with --data DIR (the
  sellers' CSV files, whose routes it searches). Without them, --dir's run as above.

  backup --out FILE      an etcd snapshot of the alliance's tree (its bookings) from the leader,
                         written beside FILE, verified, renamed; prints revision, keys, bookings
  restore --snapshot FILE --name NAME --data-dir DIR --peers NAME=URL,... [--initial-cluster-token T]
                         write member NAME's etcd data dir of a new alliance from a snapshot; run
                         once per member of --peers, then start the airline servers as usual
  probe URL [--cacert F] [--timeout 2s]
                         GET URL: exit 0 on 200, 1 otherwise (a HEALTHCHECK without curl)
`

type command func(ctx context.Context, args []string, out io.Writer) error

func commands() map[string]command {
	return map[string]command{
		"keys":      cmdKeys,
		"up":        cmdUp,
		"run":       cmdRun,
		"down":      cmdDown,
		"status":    cmdStatus,
		"kill":      cmdKill,
		"pause":     cmdPause,
		"resume":    cmdResume,
		"restart":   cmdRestart,
		"add":       cmdAdd,
		"leave":     cmdLeave,
		"replicas":  cmdReplicas,
		"load":      cmdLoad,
		"partition": cmdPartition,
		"probe":     cmdProbe,
		"backup":    cmdBackup,
		"restore":   cmdRestore,
		"heal":      cmdHeal,
		"proxyd":    cmdProxyd, // hidden: the proxy daemon up --proxies starts
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole command apart from the process: it returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	cmd, ok := commands()[name]
	if !ok {
		fmt.Fprintf(stderr, "alliancectl: unknown command %q\n%s", name, usage)
		return exitUsage
	}
	err := cmd(ctx, args[1:], stdout)
	var ue usageError
	var uh unhealthyError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &uh):
		fmt.Fprintf(stderr, "alliancectl %s: %v\n", name, err)
		return exitUnhealthy
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "alliancectl %s: %v\n", name, err)
		return exitUsage
	default:
		fmt.Fprintf(stderr, "alliancectl %s: %v\n", name, err)
		return exitFailure
	}
}

// usageError is a mistake in the command line.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// newFlags is a subcommand's flag set with the run-directory flag every command shares.
func newFlags(name, synopsis string, out io.Writer) (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet("alliancectl "+name, flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: alliancectl %s\n", synopsis)
		fs.PrintDefaults()
	}
	dir := fs.String("dir", "var/run", "run directory (state.json, logs, data, etcd data)")
	return fs, dir
}

// parse parses args into fs, allowing flags before and after the positional arguments
// ("up 3 --alliances 2"), and checks the number of positional arguments.
func parse(fs *flag.FlagSet, args []string, want int, what string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usageError{err}
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(pos) != want {
		if want == 0 {
			return nil, usagef("unexpected argument %q (every input is a flag)", pos[0])
		}
		return nil, usagef("want %s, got %q", what, strings.Join(pos, " "))
	}
	return pos, nil
}

// absDir makes a directory flag absolute, so that state.json never depends on where a later
// command runs from.
func absDir(flagName, dir string) (string, error) {
	if dir == "" {
		return "", usagef("%s: empty", flagName)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", usagef("%s: %q: %v", flagName, dir, err)
	}
	return abs, nil
}

// self is how the user should invoke alliancectl in the hints it prints.
func self() string {
	exe, err := os.Executable()
	if err != nil || strings.Contains(exe, "go-build") {
		return "go run ./cmd/alliancectl"
	}
	if rel, err := filepath.Rel(mustGetwd(), exe); err == nil && !strings.HasPrefix(rel, "..") {
		return "./" + rel
	}
	return exe
}

func mustGetwd() string {
	wd, _ := os.Getwd()
	return wd
}
