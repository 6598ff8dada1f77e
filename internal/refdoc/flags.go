package refdoc

import (
	"bytes"
	"flag"
	"fmt"

	"flightalliance/internal/daemonconfig"
)

// Flags is the reference of a server's flags: a table of each flag of fs (in fs's order, by
// name) with its environment variable (envPrefix + the name, daemonconfig.EnvName), its default
// and its usage. title heads the document; intro follows it (a sentence saying what generates
// it, and how to regenerate it).
func Flags(title, intro string, fs *flag.FlagSet, envPrefix string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n\n%s\n\n", title, intro)
	b.WriteString("| Flag | Environment variable | Default | Usage |\n|---|---|---|---|\n")
	fs.VisitAll(func(f *flag.Flag) {
		kind, usage := flag.UnquoteUsage(f)
		name := "`--" + f.Name + "`"
		if kind != "" {
			name += " " + kind
		}
		def := ""
		if f.DefValue != "" {
			def = "`" + f.DefValue + "`"
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s |\n", name, daemonconfig.EnvName(envPrefix, f.Name), def, cell(usage))
	})
	return b.Bytes()
}

// cell is s made fit for a table's cell: its pipes escaped, and its '<' (a usage's "<listen>"
// would read as an HTML tag), its line breaks spaces.
func cell(s string) string {
	var b bytes.Buffer
	for _, r := range s {
		switch r {
		case '|', '<':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
