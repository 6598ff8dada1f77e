package daemonconfig

import (
	"errors"
	"flag"
	"maps"
	"slices"
	"strings"
)

// EnvName is the environment variable of flag: prefix + its name upper-cased, '-' made '_'.
func EnvName(prefix, flag string) string {
	return prefix + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}

// setFromEnv sets, from its variable, every flag the command line did not give. Every variable
// with the prefix must be a flag's (or one of NotFlags), whether or not the flag is set here.
func setFromEnv(fs *flag.FlagSet, src Sources, origins Origins) error {
	if src.EnvPrefix == "" {
		return nil
	}
	flagOf := map[string]string{}
	fs.VisitAll(func(f *flag.Flag) { flagOf[EnvName(src.EnvPrefix, f.Name)] = f.Name })
	vars := map[string]string{}
	for _, kv := range src.Environ {
		name, value, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, src.EnvPrefix) && !slices.Contains(src.NotFlags, name) {
			vars[name] = value
		}
	}
	for _, name := range slices.Sorted(maps.Keys(vars)) {
		f, ok := flagOf[name]
		switch {
		case !ok:
			return &SourceError{Where: name, Err: errors.New("no flag has this environment variable (a typo?)")}
		case vars[name] == "" || origins[f].Kind == CommandLine:
			continue // unset, or the command line gives it
		}
		if err := set(fs, f, vars[name], name); err != nil {
			return err
		}
		origins[f] = Origin{Kind: Environment, Where: name}
	}
	return nil
}
