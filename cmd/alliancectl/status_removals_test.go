package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"flightalliance/coord/member"
)

// statusWith is an answering machine whose /status carries removals, encoded as the airline
// server encodes member.Removal, so a renamed field breaks this test.
func statusWith(t *testing.T, name string, rs ...member.Removal) machineStatus {
	t.Helper()
	b, err := json.Marshal(map[string]any{"name": name, "removals": rs})
	if err != nil {
		t.Fatal(err)
	}
	var doc statusDoc
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return machineStatus{proc: &Proc{Name: name}, doc: &doc}
}

func TestStatusPrintsEachRemovalOnce(t *testing.T) {
	now := time.Date(2026, 11, 24, 19, 20, 0, 0, time.UTC)
	probeErr := `Get "https://127.0.0.1:2383/members": dial tcp 127.0.0.1:2383: connect: connection refused`
	unreachable := member.Removal{Member: "m3", ID: "d2f0da81ffccbb5d", By: "m1", Reason: member.RemovedUnreachable,
		Error: probeErr, At: now.Add(-3 * time.Minute)}
	older := member.Removal{Member: "m3", ID: "aaaa", By: "m3", Reason: member.RemovedStale, At: now.Add(-time.Hour)}
	left := member.Removal{Member: "m4", ID: "4444", By: "m4", Reason: member.RemovedLeave, At: now.Add(-90 * time.Second)}
	stale := member.Removal{Member: "m5", ID: "5555", By: "m5", Reason: member.RemovedStale, At: now.Add(-time.Second)}
	ms := []machineStatus{
		statusWith(t, "m1", unreachable, left, stale),
		statusWith(t, "m2", older, left), // lags behind m1 on m3, knows nothing of m5 yet
		{proc: &Proc{Name: "m3"}},        // down: no /status
	}
	var b bytes.Buffer
	writeRemovals(&b, ms, now)
	want := "  etcd member removals (the last of each member):\n" +
		"    m3 (id d2f0da81ffccbb5d) removed by m1 as unreachable at 2026-11-24T19:17:00Z (3m0s ago): " + probeErr + "\n" +
		"    m4 (id 4444) left cleanly at 2026-11-24T19:18:30Z (1m30s ago)\n" +
		"    m5 (id 5555) removed by m5 as stale (a former member with the joiner's name or peer URL) at 2026-11-24T19:19:59Z (1s ago)\n"
	if b.String() != want {
		t.Fatalf("removals:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestStatusRemovalsWhenNoneOrNobodyAnswers(t *testing.T) {
	var b bytes.Buffer
	writeRemovals(&b, []machineStatus{statusWith(t, "m1"), {proc: &Proc{Name: "m2"}}}, time.Now())
	if b.String() != "  etcd member removals: none recorded\n" {
		t.Fatalf("no removals: %q", b.String())
	}
	b.Reset()
	writeRemovals(&b, []machineStatus{{proc: &Proc{Name: "m1"}}}, time.Now())
	if b.Len() != 0 {
		t.Fatalf("nobody answered, yet: %q", b.String())
	}
}

// A long probe error is cut, so that the line stays readable.
func TestStatusRemovalCutsLongErrors(t *testing.T) {
	r := removal{Member: "m2", ID: "2", By: "m1", Reason: "unreachable", Error: strings.Repeat("x", 500), At: time.Now()}
	if got := removalText(r, r.At); len(got) > 300 || !strings.HasSuffix(got, "…") {
		t.Fatalf("long error not cut: %d bytes: %q", len(got), got)
	}
}
