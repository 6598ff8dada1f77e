package daemonconfig

import (
	"flag"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"text/tabwriter"
)

// Print writes the effective configuration of fs in the config file's format — one line a flag
// ("name value"), a repeatable flag one line a value, each followed by "# " and where it came
// from — so that the output read back as a config file gives the same. A flag left at its
// default, or with no value, is a comment line: read back, it stays unset (a flag given, even
// its default, can mean something else). The flags named in omit are left out (--check-config
// itself, the config file's flag).
//
// Secrets are not printed: the servers take tokens and keys from files (their paths are
// printed, never their content), a flag named "...token", "...password" or "...secret" would
// be shown as <redacted>, and so is the password of any URL in a value (user:password@host).
func Print(w io.Writer, fs *flag.FlagSet, origins Origins, omit ...string) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fs.VisitAll(func(f *flag.Flag) {
		if slices.Contains(omit, f.Name) {
			return
		}
		from := origins.Of(f.Name)
		values := []string{f.Value.String()}
		if l, ok := f.Value.(*List); ok {
			values = *l
		}
		if len(values) == 0 || values[0] == "" {
			fmt.Fprintf(tw, "# %s (none)\t# %s\n", f.Name, from)
			return
		}
		unset := ""
		if from.Kind == Default {
			unset = "# "
		}
		for _, v := range values {
			fmt.Fprintf(tw, "%s%s %s\t# %s\n", unset, f.Name, redact(f.Name, v), from)
		}
	})
	return tw.Flush()
}

// urlPassword is the password of a URL's user information: "://user:password@".
var urlPassword = regexp.MustCompile(`(://[^:/@\s,]*):[^@/\s,]*@`)

// redact hides what a value may hold of a secret.
func redact(flagName, value string) string {
	for _, secret := range []string{"token", "password", "secret"} {
		if strings.HasSuffix(flagName, secret) {
			return "<redacted>"
		}
	}
	return urlPassword.ReplaceAllString(value, "$1:<redacted>@")
}
