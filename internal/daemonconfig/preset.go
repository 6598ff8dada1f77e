package daemonconfig

import (
	"flag"
	"fmt"
	"maps"
	"slices"
)

// Preset gives every flag of values that no source gave (its value is still the flag's default)
// the value there instead: a default chosen by another flag, by, such as "--network wan". A flag
// the command line, the environment or the config file gave keeps its value: an explicit flag
// wins over a preset. The flags preset stay defaults in origins, shown as coming from by (a
// printed configuration keeps them as comments: read back, by presets them again).
func Preset(fs *flag.FlagSet, origins Origins, values map[string]string, by string) error {
	for _, name := range slices.Sorted(maps.Keys(values)) {
		if origins[name].Kind != Default {
			continue
		}
		if err := fs.Set(name, values[name]); err != nil {
			return fmt.Errorf("%s: --%s %q: %w", by, name, values[name], err)
		}
		origins[name] = Origin{Kind: Default, Where: by}
	}
	return nil
}
