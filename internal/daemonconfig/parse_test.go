package daemonconfig

import (
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testFlags is a server's flags in small: a string with a dash, an int, a boolean, a repeatable
// flag and the config file's flag.
type testFlags struct {
	fs         *flag.FlagSet
	peerListen *string
	cacheSize  *int
	force      *bool
	sellers    List
	config     *string
}

func newTestFlags() *testFlags {
	t := &testFlags{fs: flag.NewFlagSet("test", flag.ContinueOnError)}
	t.fs.SetOutput(io.Discard)
	t.peerListen = t.fs.String("peer-listen", "127.0.0.1:2381", "")
	t.cacheSize = t.fs.Int("cache-size", 4096, "")
	t.force = t.fs.Bool("force-new-cluster", false, "")
	t.fs.Var(&t.sellers, "seller", "")
	t.config = t.fs.String("config", "", "")
	return t
}

// writeConfig writes a config file of lines and returns its path.
func writeConfig(t *testing.T, lines ...string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "airline.conf")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

func sources(environ ...string) Sources {
	return Sources{EnvPrefix: "FA_AIRLINE_", Environ: environ, ConfigFlag: "config", NotFlags: []string{"FA_AIRLINE_FLAGS"}}
}

// TestEachFlagFromTheFirstSourceThatGivesIt: the command line wins over the environment, the
// environment over the file, the file over the default — flag by flag, a repeatable flag's
// values taken whole from one source.
func TestEachFlagFromTheFirstSourceThatGivesIt(t *testing.T) {
	file := writeConfig(t,
		"# an airline's configuration",
		"",
		"peer-listen 10.0.0.1:2381",
		"cache-size 7 # a comment after the value",
		"force-new-cluster",
		"seller LY=file.csv",
		"--seller UA=file.csv",
	)
	for _, tc := range []struct {
		name       string
		args       []string
		environ    []string
		peerListen string
		cacheSize  int
		force      bool
		sellers    string
		origins    map[string]string
	}{
		{name: "defaults", peerListen: "127.0.0.1:2381", cacheSize: 4096,
			origins: map[string]string{"peer-listen": "default", "seller": "default"}},
		{name: "file", args: []string{"--config", file}, peerListen: "10.0.0.1:2381", cacheSize: 7, force: true, sellers: "LY=file.csv,UA=file.csv",
			origins: map[string]string{"peer-listen": file + ":3", "cache-size": file + ":4", "seller": file + ":6", "config": "command line"}},
		{name: "file named by the environment", environ: []string{"FA_AIRLINE_CONFIG=" + file},
			peerListen: "10.0.0.1:2381", cacheSize: 7, force: true, sellers: "LY=file.csv,UA=file.csv",
			origins: map[string]string{"config": "FA_AIRLINE_CONFIG", "force-new-cluster": file + ":5"}},
		{name: "environment over file", args: []string{"--config", file},
			environ:    []string{"FA_AIRLINE_PEER_LISTEN=10.0.0.2:2381", "FA_AIRLINE_SELLER=AF=env.csv, KL=env.csv", "FA_AIRLINE_FORCE_NEW_CLUSTER=false"},
			peerListen: "10.0.0.2:2381", cacheSize: 7, force: false, sellers: "AF=env.csv,KL=env.csv",
			origins: map[string]string{"peer-listen": "FA_AIRLINE_PEER_LISTEN", "cache-size": file + ":4", "seller": "FA_AIRLINE_SELLER"}},
		{name: "command line over both", args: []string{"--config", file, "--peer-listen", "10.0.0.3:2381", "--seller", "BA=cmd.csv"},
			environ:    []string{"FA_AIRLINE_PEER_LISTEN=10.0.0.2:2381", "FA_AIRLINE_SELLER=AF=env.csv", "FA_AIRLINE_CACHE_SIZE=9"},
			peerListen: "10.0.0.3:2381", cacheSize: 9, force: true, sellers: "BA=cmd.csv",
			origins: map[string]string{"peer-listen": "command line", "cache-size": "FA_AIRLINE_CACHE_SIZE", "seller": "command line"}},
		{name: "an empty variable is unset; other programs' variables are left alone",
			environ:    []string{"FA_AIRLINE_PEER_LISTEN=", "FA_AIRLINE_FLAGS=--hedge-after 2s", "FA_SEARCH_X=1", "FA_PORTS=33000-37999"},
			peerListen: "127.0.0.1:2381", cacheSize: 4096, origins: map[string]string{"peer-listen": "default"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newTestFlags()
			origins, err := Parse(f.fs, tc.args, sources(tc.environ...))
			if err != nil {
				t.Fatal(err)
			}
			if *f.peerListen != tc.peerListen || *f.cacheSize != tc.cacheSize || *f.force != tc.force || f.sellers.String() != tc.sellers {
				t.Errorf("peer-listen %q, cache-size %d, force-new-cluster %v, seller %q; want %q, %d, %v, %q",
					*f.peerListen, *f.cacheSize, *f.force, f.sellers.String(), tc.peerListen, tc.cacheSize, tc.force, tc.sellers)
			}
			for flagName, want := range tc.origins {
				if got := origins.Of(flagName).String(); got != want {
					t.Errorf("--%s from %q, want %q", flagName, got, want)
				}
			}
		})
	}
}

// TestTyposAndBadValuesAreRefusedNamingThem: a variable or a file name that is no flag's, a
// value the flag refuses, a flag given twice in a file, and a value missing are refused, naming
// the variable or file:line, and the flag.
func TestTyposAndBadValuesAreRefusedNamingThem(t *testing.T) {
	file := func(lines ...string) []string { return []string{"--config", writeConfig(t, lines...)} }
	for _, tc := range []struct {
		name    string
		args    []string
		environ []string
		want    string // in the error, after the file's path for a file
	}{
		{name: "unknown variable", environ: []string{"FA_AIRLINE_CAHCE_SIZE=1"}, want: "FA_AIRLINE_CAHCE_SIZE: no flag has this environment variable"},
		{name: "unknown variable though the command line gives every flag", args: []string{"--cache-size", "1"},
			environ: []string{"FA_AIRLINE_LISTEN_PEER=x"}, want: "FA_AIRLINE_LISTEN_PEER: no flag"},
		{name: "bad value in a variable", environ: []string{"FA_AIRLINE_CACHE_SIZE=lots"}, want: `FA_AIRLINE_CACHE_SIZE: --cache-size: invalid value "lots"`},
		{name: "bad boolean in a variable", environ: []string{"FA_AIRLINE_FORCE_NEW_CLUSTER=maybe"}, want: "FA_AIRLINE_FORCE_NEW_CLUSTER: --force-new-cluster: invalid value"},
		{name: "unknown name in the file", args: file("peer-listen 10.0.0.1:1", "cahce-size 1"), want: `:2: "cahce-size" is not a flag`},
		{name: "unknown name in the file overridden by nothing", args: append(file("nope"), "--cache-size", "1"), want: `:1: "nope" is not a flag`},
		{name: "bad value in the file", args: file("", "cache-size lots"), want: `:2: --cache-size: invalid value "lots"`},
		{name: "flag twice in the file", args: file("peer-listen a:1", "peer-listen b:1"), want: ":2: --peer-listen: given again (first at "},
		{name: "value missing in the file", args: file("peer-listen"), want: ":1: --peer-listen: needs a value"},
		{name: "config file naming another", args: file("config other.conf"), want: ":1: --config: a config file cannot name another"},
		{name: "config file missing", args: []string{"--config", filepath.Join(t.TempDir(), "none.conf")}, want: "--config: open "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(newTestFlags().fs, tc.args, sources(tc.environ...))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// TestCommandLineErrorsAreTheFlagPackages: the command line is the flag package's, its errors
// (--help among them) returned as they are, not as a SourceError.
func TestCommandLineErrorsAreTheFlagPackages(t *testing.T) {
	_, err := Parse(newTestFlags().fs, []string{"--help"}, sources())
	if !errors.Is(err, flag.ErrHelp) {
		t.Errorf("--help: %v, want flag.ErrHelp", err)
	}
	_, err = Parse(newTestFlags().fs, []string{"--cache-size", "lots"}, sources("FA_AIRLINE_NOPE=1"))
	var se *SourceError
	if err == nil || errors.As(err, &se) {
		t.Errorf("a bad command line: %v, want the flag package's error", err)
	}
}

// TestBlameSaysWhereARefusedValueCameFrom: a later check's refusal of a value names the variable
// or the file's line that gave it; one of the command line is left as it is.
func TestBlameSaysWhereARefusedValueCameFrom(t *testing.T) {
	f := newTestFlags()
	origins, err := Parse(f.fs, []string{"--peer-listen", "x:1", "--config", writeConfig(t, "seller LY")}, sources("FA_AIRLINE_CACHE_SIZE=-1"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ err, want string }{
		{"--cache-size: must be 0 or more", "--cache-size: must be 0 or more (from FA_AIRLINE_CACHE_SIZE)"},
		{`--seller: "LY" is not CODE=path`, `--seller: "LY" is not CODE=path (from ` + origins.Of("seller").Where + ")"},
		{"--peer-listen: bad", "--peer-listen: bad"},
		{"etcd member: no quorum", "etcd member: no quorum"},
	} {
		if got := origins.Explain(errors.New(tc.err)).Error(); got != tc.want {
			t.Errorf("Explain(%q) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

// TestAskedReadsTheCommandLineThenTheEnvironment: a boolean flag asked for before parsing.
func TestAskedReadsTheCommandLineThenTheEnvironment(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		environ []string
		want    bool
	}{
		{[]string{"--check-config"}, nil, true},
		{[]string{"-check-config=true", "--nope"}, nil, true},
		{[]string{"--check-config=false"}, []string{"FA_AIRLINE_CHECK_CONFIG=1"}, false},
		{[]string{"--", "--check-config"}, nil, false},
		{[]string{"--name", "check-config"}, nil, false},
		{nil, []string{"FA_AIRLINE_CHECK_CONFIG=true"}, true},
		{nil, []string{"FA_AIRLINE_CHECK_CONFIG=no"}, false},
		{nil, nil, false},
	} {
		if got := Asked("check-config", tc.args, sources(tc.environ...)); got != tc.want {
			t.Errorf("Asked(%q, %q) = %v, want %v", tc.args, tc.environ, got, tc.want)
		}
	}
}
