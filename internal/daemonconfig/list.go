package daemonconfig

import "strings"

// List is the value of a repeatable flag: every use appends, and each may hold a
// comma-separated list — which is also how its environment variable gives several. Empty parts
// are skipped.
type List []string

func (l *List) String() string {
	if l == nil {
		return ""
	}
	return strings.Join(*l, ",")
}

// Set appends v's comma-separated parts.
func (l *List) Set(v string) error {
	for part := range strings.SplitSeq(v, ",") {
		if part = strings.TrimSpace(part); part != "" {
			*l = append(*l, part)
		}
	}
	return nil
}

// Repeatable marks the flag as one a config file may give on several lines.
func (l *List) Repeatable() bool { return true }

// repeatable is a flag value that may be set several times, each adding to it.
type repeatable interface{ Repeatable() bool }

func isRepeatable(v any) bool {
	r, ok := v.(repeatable)
	return ok && r.Repeatable()
}
