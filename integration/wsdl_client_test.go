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
)

// TestThirdPartyWSDLClient asks a real airline server for trips with the npm soap package, which
// knows nothing of this project but the WSDL the server publishes at ?wsdl.
func TestThirdPartyWSDLClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed: this test drives the airline server with the npm soap package (%v)", err)
	}
	dir := filepath.Join("testdata", "wsdlclient")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "soap", "package.json")); err != nil {
		npm, err := exec.LookPath("npm")
		if err != nil {
			t.Fatalf("npm is not installed: needed once to install %s/node_modules (%v)", dir, err)
		}
		cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
		}
	}

	a := newAlliance(t, "star", map[string][]string{"m1": {"LY"}, "m2": {"UA", "LH"}})
	a.waitSettled(90 * time.Second)
	for _, q := range busyQueries(a.activeData(), 2) {
		cmd := exec.CommandContext(ctx, node, "trips.js", a.machines["m1"].url()+"/Services/SellerService",
			q.src, q.dst, q.date.String())
		cmd.Dir = dir
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
