package integration

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"flightalliance/internal/zeeptest"
	"flightalliance/tests/framework"
)

// TestThirdPartyWSDLClient asks a real airline server for trips with zeep (Debian's python3-zeep),
// which knows nothing of this project but the WSDL the server publishes at ?wsdl.
func TestThirdPartyWSDLClient(t *testing.T) {
	dir := filepath.Join("testdata", "zeepclient")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	a := newAlliance(t, "star", map[string][]string{"m1": {"LY"}, "m2": {"UA", "LH"}})
	a.waitSettled(90 * time.Second)
	for _, q := range busyQueries(a.activeData(), 2) {
		cmd := zeeptest.Command(ctx, t, dir, "trips.py", a.machines["m1"].url()+"/Services/SellerService",
			q.src, q.dst, q.date.String())
		tester := framework.IssueFiles(t, t.TempDir(), "zeep-soap")
		cmd.Env = append(os.Environ(), "FA_TLS_CERT="+tester.CertFile, "FA_TLS_KEY="+tester.KeyFile, "FA_TLS_CA="+tester.CAFile)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("trips.py %v: %v\n%s", q, err, exitStderr(err))
		}
		var got struct {
			Complete bool
			Alliance string
			Trips    []string
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("trips.py printed %q: %v", out, err)
		}
		want := referenceTrips(a.activeData(), q, 30*time.Minute)
		if !got.Complete || got.Alliance != "star" || !slices.Equal(got.Trips, want) {
			t.Fatalf("%v through zeep: complete=%v alliance=%q, %d trips %v…, want %d trips %v…",
				q, got.Complete, got.Alliance, len(got.Trips), head(got.Trips), len(want), head(want))
		}
	}
}

// exitStderr is what a command run by Output wrote to stderr before it failed.
func exitStderr(err error) []byte {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.Stderr
	}
	return nil
}
