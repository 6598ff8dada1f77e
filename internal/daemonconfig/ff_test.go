package daemonconfig

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/peterbourgon/ff/v3"
)

// TestAgreesWithFF: on the cases both handle, Parse sets every flag as
// github.com/peterbourgon/ff/v3 does (ff.Parse with WithEnvVarPrefix, WithConfigFileFlag and
// PlainParser), and refuses what ff refuses. Where they part is on purpose, and checked here too:
// ff ignores a variable with the prefix that is no flag's and lets a file give a flag twice (the
// last wins); Parse refuses both, a typo must not be silently ignored.
func TestAgreesWithFF(t *testing.T) {
	file := writeConfig(t,
		"# comment",
		"peer-listen 10.0.0.1:2381 # after the value",
		"",
		"cache-size 7",
		"force-new-cluster",
		"seller LY=a.csv",
		"seller UA=b.csv,AF=c.csv",
	)
	bad := writeConfig(t, "cache-size lots")
	unknown := writeConfig(t, "cahce-size 7")
	twice := writeConfig(t, "cache-size 1", "cache-size 2")
	for _, tc := range []struct {
		name    string
		args    []string
		environ map[string]string
		differ  bool // Parse refuses what ff takes
	}{
		{name: "defaults"},
		{name: "file", args: []string{"--config", file}},
		{name: "file by the environment", environ: map[string]string{"FA_AIRLINE_CONFIG": file}},
		{name: "environment over file", args: []string{"--config", file},
			environ: map[string]string{"FA_AIRLINE_CACHE_SIZE": "9", "FA_AIRLINE_SELLER": "KL=d.csv,BA=e.csv"}},
		{name: "command line over both", args: []string{"--config", file, "--cache-size", "3", "--seller", "IB=f.csv"},
			environ: map[string]string{"FA_AIRLINE_CACHE_SIZE": "9", "FA_AIRLINE_PEER_LISTEN": "10.0.0.9:1"}},
		{name: "empty variable", environ: map[string]string{"FA_AIRLINE_PEER_LISTEN": ""}},
		{name: "bad value in a variable", environ: map[string]string{"FA_AIRLINE_CACHE_SIZE": "lots"}},
		{name: "bad value in the file", args: []string{"--config", bad}},
		{name: "unknown name in the file", args: []string{"--config", unknown}},
		{name: "unknown variable", environ: map[string]string{"FA_AIRLINE_CAHCE_SIZE": "1"}, differ: true},
		{name: "flag twice in the file", args: []string{"--config", twice}, differ: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, kv := range os.Environ() {
				if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "FA_AIRLINE_") {
					t.Setenv(name, "") // both read the process's environment here; unset counts as empty
				}
			}
			for name, value := range tc.environ {
				t.Setenv(name, value)
			}
			ours, theirs := newTestFlags(), newTestFlags()
			_, ourErr := Parse(ours.fs, tc.args, Sources{EnvPrefix: "FA_AIRLINE_", Environ: os.Environ(), ConfigFlag: "config"})
			ffErr := ff.Parse(theirs.fs, tc.args, ff.WithEnvVarPrefix("FA_AIRLINE"), ff.WithConfigFileFlag("config"),
				ff.WithConfigFileParser(ff.PlainParser))
			if tc.differ {
				if ourErr == nil || ffErr != nil {
					t.Fatalf("Parse: %v, ff: %v; want Parse alone to refuse", ourErr, ffErr)
				}
				return
			}
			if (ourErr == nil) != (ffErr == nil) {
				t.Fatalf("Parse: %v, ff: %v", ourErr, ffErr)
			}
			if ourErr != nil {
				return
			}
			theirs.fs.VisitAll(func(f *flag.Flag) {
				if got, want := ours.fs.Lookup(f.Name).Value.String(), f.Value.String(); got != want {
					t.Errorf("--%s: Parse %q, ff %q", f.Name, got, want)
				}
			})
		})
	}
}
