package daemonconfig

import (
	"flag"
	"fmt"
)

// Sources are where a server takes its configuration besides the command line.
type Sources struct {
	// EnvPrefix begins every variable of a flag ("FA_AIRLINE_"); "" reads no variable.
	EnvPrefix string
	// Environ is the environment, "NAME=value" each (os.Environ()).
	Environ []string
	// NotFlags are variables with the prefix that are no flag's and are left alone: read by
	// something else (a test harness's FA_AIRLINE_FLAGS), not refused.
	NotFlags []string
	// ConfigFlag is the flag that names the config file ("config"): given on the command line
	// or by its variable. "" reads no file.
	ConfigFlag string
}

// SourceError is a value or a name refused in the environment or the config file.
type SourceError struct {
	Where string // the variable's name, or "file:line"
	Flag  string // the flag the value was for; "" when the name is no flag's
	Err   error
}

func (e *SourceError) Error() string {
	if e.Flag == "" {
		return fmt.Sprintf("%s: %v", e.Where, e.Err)
	}
	return fmt.Sprintf("%s: --%s: %v", e.Where, e.Flag, e.Err)
}

func (e *SourceError) Unwrap() error { return e.Err }

// Parse parses args into fs (the flag package's errors, flag.ErrHelp among them, are returned as
// they are: it has reported them on fs's output), then sets every flag the command line did not
// give from its environment variable, then every flag neither gave from the config file. It
// returns where each flag came from. Errors of the environment and the file are *SourceError.
func Parse(fs *flag.FlagSet, args []string, src Sources) (Origins, error) {
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	origins := Origins{}
	fs.Visit(func(f *flag.Flag) { origins[f.Name] = Origin{Kind: CommandLine} })
	if err := setFromEnv(fs, src, origins); err != nil {
		return nil, err
	}
	if src.ConfigFlag == "" {
		return origins, nil
	}
	file := fs.Lookup(src.ConfigFlag)
	if file == nil {
		return nil, fmt.Errorf("daemonconfig: no flag --%s to name the config file", src.ConfigFlag)
	}
	if path := file.Value.String(); path != "" {
		if err := setFromFile(fs, path, src.ConfigFlag, origins); err != nil {
			return nil, err
		}
	}
	return origins, nil
}

// set gives flag its value from a source, reporting a refusal as a SourceError at where.
func set(fs *flag.FlagSet, name, value, where string) error {
	if err := fs.Set(name, value); err != nil {
		return &SourceError{Where: where, Flag: name, Err: fmt.Errorf("invalid value %q: %w", value, err)}
	}
	return nil
}
