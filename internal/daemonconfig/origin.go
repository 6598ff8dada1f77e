package daemonconfig

import (
	"fmt"
	"strings"
)

// Kind is where a flag's value came from.
type Kind int

const (
	Default     Kind = iota // the flag's default: no source gave it
	CommandLine             // the command line
	Environment             // an environment variable
	File                    // a line of the config file
)

// Origin is where one flag's value came from: Where is the variable's name (Environment),
// "file:line" (File; a repeatable flag's first line), or the flag that chose a default (Default
// set by Preset, such as "--network wan"; "" for the flag's own default).
type Origin struct {
	Kind  Kind
	Where string
}

func (o Origin) String() string {
	switch o.Kind {
	case CommandLine:
		return "command line"
	case Environment, File:
		return o.Where
	}
	if o.Where != "" {
		return "default of " + o.Where
	}
	return "default"
}

// Origins are where the flags' values came from, by flag name; a flag absent has its default.
type Origins map[string]Origin

// Of is where flag's value came from.
func (o Origins) Of(flag string) Origin { return o[flag] }

// Blame adds to err, a refusal of flag's value, where that value came from when it was not the
// command line: "--replicas: 0, want 1 to 5 (from FA_AIRLINE_REPLICAS)".
func (o Origins) Blame(flag string, err error) error {
	if err == nil {
		return nil
	}
	switch from := o[strings.TrimLeft(flag, "-")]; from.Kind {
	case Environment, File:
		return fmt.Errorf("%w (from %s)", err, from.Where)
	}
	return err
}

// Explain is Blame for an error whose message begins with the flag it refuses ("--name: ..."
// or "--name value ..."), the servers' convention; any other error is returned as it is.
func (o Origins) Explain(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "--") {
		return err
	}
	name := msg[2:]
	if end := strings.IndexFunc(name, func(r rune) bool { return !isNameRune(r) }); end >= 0 {
		name = name[:end]
	}
	return o.Blame(name, err)
}

func isNameRune(r rune) bool {
	return r == '-' || r == '_' || r == '.' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9')
}
