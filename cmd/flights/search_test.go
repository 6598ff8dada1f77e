package main

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"flightalliance/search"
	"flightalliance/soap"
)

// recording is a delegate that answers star's trips and records each request.
type recording struct {
	mu   sync.Mutex
	reqs []soap.GetTripsRequest
}

func (r *recording) getTrips(ctx context.Context, req *soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
	r.mu.Lock()
	r.reqs = append(r.reqs, *req)
	r.mu.Unlock()
	resp, err := star(ctx, req)
	if err == nil {
		resp.Total = len(resp.Trips)
	}
	return resp, err
}

func (r *recording) last() soap.GetTripsRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reqs[len(r.reqs)-1]
}

// TestSearchControlsReachTheAlliance: the flags become the query's parameters, which the search
// server passes on to the alliance, and the answer says what it was.
func TestSearchControlsReachTheAlliance(t *testing.T) {
	d := &recording{}
	url := startSearch(t, map[string]string{"star": startDelegate(t, d.getTrips)})
	code, out, errOut := flights("search", "--server", url, "--from", "TLV", "--to", "JFK", "--date", "2026-12-01",
		"--limit", "1", "--offset", "1", "--nonstop", "--max-price", "600", "--sort", "arrival", "--json")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	req := d.last()
	if req.MaxTrips != 2 || !req.Nonstop || req.MaxPrice != "600.00" || req.Sort != "arrival" {
		t.Errorf("the alliance was asked %+v", req)
	}
	var a search.Answer
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	if a.Query.Limit != 1 || a.Query.Offset != 1 || !a.Query.Nonstop || a.Query.MaxPrice != "600.00" || a.Query.Sort != "arrival" {
		t.Errorf("echo %+v", a.Query)
	}

	code, out, errOut = flights("search", "--server", url, "--from", "TLV", "--to", "JFK", "--date", "2026-12-01", "--limit", "1")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "430.00  LY007+UA220") || !strings.Contains(out, "trip 1 of 2 from TLV to JFK on 2026-12-01\n") {
		t.Errorf("table of the first page:\n%s", out)
	}
	if req := d.last(); req.MaxTrips != 1 || req.Nonstop || req.MaxPrice != "" || req.Sort != "" {
		t.Errorf("defaults: the alliance was asked %+v", req)
	}
}

func TestSearchBadControlsExit1NamingTheFlag(t *testing.T) {
	d := &recording{}
	url := startSearch(t, map[string]string{"star": startDelegate(t, d.getTrips)})
	base := []string{"search", "--server", url, "--from", "TLV", "--to", "JFK", "--date", "2026-12-01"}
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"--limit", "1001"}, "--limit"},
		{[]string{"--limit", "-1"}, "--limit"},
		{[]string{"--limit", "ten"}, "-limit"},
		{[]string{"--offset", "-1"}, "--offset"},
		{[]string{"--max-price", "cheap"}, "--max-price"},
		{[]string{"--max-price", "1.234"}, "--max-price"},
		{[]string{"--sort", "cheapest"}, "--sort"},
		{[]string{"--sort", ""}, "--sort"},
		{[]string{"--nonstop=maybe"}, "-nonstop"},
	} {
		code, _, errOut := flights(append(base, c.args...)...)
		if code != exitUsage || !strings.Contains(errOut, c.flag) {
			t.Errorf("%v: exit %d, stderr %q; want 1 naming %s", c.args, code, errOut, c.flag)
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.reqs) != 0 {
		t.Errorf("bad flags reached the alliance: %+v", d.reqs)
	}
}

func TestServerRefusalOfAControlIsReportedAsItsFlag(t *testing.T) {
	for param, flag := range map[string]string{"limit": "--limit", "offset": "--offset", "nonstop": "--nonstop",
		"max_price": "--max-price", "sort": "--sort"} {
		if got := flagNamed(param + ": bad"); got != flag+": bad" {
			t.Errorf("flagNamed(%q) = %q", param+": bad", got)
		}
	}
}
