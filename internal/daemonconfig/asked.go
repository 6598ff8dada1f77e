package daemonconfig

import (
	"strconv"
	"strings"
)

// Asked reports whether the boolean flag name is turned on by args or, failing that, by its
// environment variable — read before parsing, for what must be known even when parsing fails
// (--check-config exits 2 on a refused configuration, even when the flag package stopped before
// reaching the flag). It cannot see the config file, which parsing names.
func Asked(name string, args []string, src Sources) bool {
	for _, a := range args {
		if a == "--" {
			break
		}
		given, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if given == name && strings.HasPrefix(a, "-") {
			on, err := strconv.ParseBool(value)
			return !hasValue || (err == nil && on)
		}
	}
	if src.EnvPrefix == "" {
		return false
	}
	for _, kv := range src.Environ {
		if value, ok := strings.CutPrefix(kv, EnvName(src.EnvPrefix, name)+"="); ok {
			on, _ := strconv.ParseBool(value)
			return on
		}
	}
	return false
}
