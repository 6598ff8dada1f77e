package daemonconfig

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPrintedConfigurationReadsBackTheSame: the effective configuration printed says where each
// flag came from, and read back as a config file it gives every flag the same value.
func TestPrintedConfigurationReadsBackTheSame(t *testing.T) {
	f := newTestFlags()
	origins, err := Parse(f.fs, []string{"--seller", "LY=ly.csv,UA=ua.csv", "--force-new-cluster"},
		sources("FA_AIRLINE_PEER_LISTEN=10.0.0.1:2381"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Print(&out, f.fs, origins, "config"); err != nil {
		t.Fatal(err)
	}
	printed := out.String()
	for _, want := range []string{"peer-listen 10.0.0.1:2381", "# FA_AIRLINE_PEER_LISTEN", "seller LY=ly.csv", "seller UA=ua.csv",
		"# command line", "# cache-size 4096", "# default"} {
		if !strings.Contains(printed, want) {
			t.Errorf("the printed configuration lacks %q:\n%s", want, printed)
		}
	}
	if strings.Contains(printed, "config") {
		t.Errorf("an omitted flag is printed:\n%s", printed)
	}

	file := filepath.Join(t.TempDir(), "printed.conf")
	if err := os.WriteFile(file, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	again := newTestFlags()
	if _, err := Parse(again.fs, []string{"--config", file}, sources()); err != nil {
		t.Fatalf("the printed configuration read back: %v\n%s", err, printed)
	}
	if *again.peerListen != *f.peerListen || again.sellers.String() != f.sellers.String() || *again.force != *f.force || *again.cacheSize != *f.cacheSize {
		t.Errorf("read back: %q %q %v %d, printed from %q %q %v %d", *again.peerListen, again.sellers.String(), *again.force, *again.cacheSize,
			*f.peerListen, f.sellers.String(), *f.force, *f.cacheSize)
	}
}

// TestPrintRedactsSecrets: a URL's password and a flag named as a secret are not printed.
func TestPrintRedactsSecrets(t *testing.T) {
	f := newTestFlags()
	token := f.fs.String("admin-token", "", "")
	origins, err := Parse(f.fs, []string{"--peer-listen", "https://ops:hunter2@10.0.0.1:2381", "--admin-token", "s3cr3t",
		"--seller", "LY=https://u:pw@files/ly.csv"}, sources())
	if err != nil || *token != "s3cr3t" {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Print(&out, f.fs, origins); err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"hunter2", "s3cr3t", ":pw@"} {
		if strings.Contains(out.String(), secret) {
			t.Errorf("%q is printed:\n%s", secret, out.String())
		}
	}
	if !strings.Contains(out.String(), "https://ops:<redacted>@10.0.0.1:2381") {
		t.Errorf("the URL is not shown with its password redacted:\n%s", out.String())
	}
}
