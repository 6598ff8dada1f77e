package daemonconfig

import (
	"flag"
	"fmt"
	"strings"
)

// Usage is a note for a server's --help: how its flags are also taken from the environment and
// the config file, and in what order.
func Usage(fs *flag.FlagSet, src Sources) string {
	example := "" // the first flag with a '-' in its name shows how the name is spelt
	fs.VisitAll(func(f *flag.Flag) {
		if example == "" && strings.Contains(f.Name, "-") {
			example = f.Name
		}
	})
	return fmt.Sprintf(`Every flag may also be given by an environment variable, %s<FLAG>: the flag's
name upper-cased, '-' as '_' (--%s as %s); a repeatable flag takes
a comma-separated list. Or by a line "flag-name value" of the file --%s FILE names
(# comments; a repeatable flag may repeat). The command line wins over the environment,
the environment over the file, the file over the default. A variable %s* or a name in
the file that is no flag's is refused.
`, src.EnvPrefix, example, EnvName(src.EnvPrefix, example), src.ConfigFlag, src.EnvPrefix)
}
