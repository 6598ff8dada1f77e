package integration

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"flightalliance/internal/nodetest"
)

// TestThirdPartyWSDLClient asks a real airline server for trips with the npm soap package, which
// knows nothing of this project but the WSDL the server publishes at ?wsdl.
func TestThirdPartyWSDLClient(t *testing.T) {
	dir := filepath.Join("testdata", "wsdlclient")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	node := nodetest.Node(ctx, t, dir)

	a := newAlliance(t, "star", map[string][]string{"m1": {"LY"}, "m2": {"UA", "LH"}})
	a.waitSettled(90 * time.Second)
	for _, q := range busyQueries(a.activeData(), 2) {
		cmd := exec.CommandContext(ctx, node, "trips.js", a.machines["m1"].url()+"/Services/SellerService",
			q.src, q.dst, q.date.String())
		cmd.Dir = dir
		tester := issueFiles(t, t.TempDir(), "npm-soap")
		cmd.Env = append(os.Environ(), "FA_TLS_CERT="+tester.CertFile, "FA_TLS_KEY="+tester.KeyFile, "FA_TLS_CA="+tester.CAFile)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("node trips.js %v: %v", q, err)
		}
		var got struct {
			Complete bool
			Alliance string
			Trips    []string
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("node trips.js printed %q: %v", out, err)
		}
		want := referenceTrips(a.activeData(), q, 30*time.Minute)
		if !got.Complete || got.Alliance != "star" || !slices.Equal(got.Trips, want) {
			t.Fatalf("%v through the npm soap client: complete=%v alliance=%q, %d trips %v…, want %d trips %v…",
				q, got.Complete, got.Alliance, len(got.Trips), head(got.Trips), len(want), head(want))
		}
	}
}
