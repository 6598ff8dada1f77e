package alliance

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"flightalliance/coord/member"
)

// The etcd member's removals reach /metrics, counted by reason, and a callback the caller had
// set on the member's config is still called.
func TestMemberRemovalsAreCountedInMetrics(t *testing.T) {
	var passed []member.Removal
	cfg := Config{Name: "m1", Alliance: "star", Listen: "127.0.0.1:0"}
	cfg.Member.OnRemoval = func(r member.Removal) { passed = append(passed, r) }
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []member.RemovalReason{member.RemovedUnreachable, member.RemovedUnreachable, member.RemovedLeave} {
		m.cfg.Member.OnRemoval(member.Removal{Member: "m2", By: "m1", Reason: r})
	}
	if len(passed) != 3 {
		t.Fatalf("the caller's OnRemoval got %d removals, want 3", len(passed))
	}
	srv := httptest.NewServer(m.routes())
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`flightalliance_airline_member_removals_total{reason="unreachable"} 2`,
		`flightalliance_airline_member_removals_total{reason="leave"} 1`,
		`flightalliance_airline_member_removals_total{reason="stale"} 0`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}
