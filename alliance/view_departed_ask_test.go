package alliance

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/gather"
	"flightalliance/alliance/trip"
	"flightalliance/coord"
)

// TestAskOfADepartedMachineLeavesOutSellersItCannotBeCheckedFor: h held LY and gave it to p (h
// still has its old copy: an earlier holder, asked after p) and is UA's primary; h's session
// ends while a gather runs, and the gather asks h for LY and UA. h is asked only for UA, at the
// version its last entry named: for LY it would answer from its old copy, unchecked. A real
// IntraClusterService over HTTP answers.
func TestAskOfADepartedMachineLeavesOutSellersItCannotBeCheckedFor(t *testing.T) {
	lyOld, lyNew, ua := testSeller(t, "LY", 3), testSeller(t, "LY", 2), testSeller(t, "UA", 2)
	if lyOld.Version() == lyNew.Version() {
		t.Fatal("want two LY versions")
	}
	srv := httptest.NewUnstartedServer(nil)
	h, err := New(Config{Name: "h", Alliance: "star", Listen: srv.Listener.Addr().String()})
	if err != nil {
		t.Fatal(err)
	}
	h.copies = newCopies(map[string]*flight.Seller{"LY": lyOld, "UA": ua})
	srv.Config.Handler = h.routes()
	srv.Start()
	defer srv.Close()

	d, err := New(Config{Name: "d", Alliance: "star", Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	now := listedOnClock(d.view)
	d.view.apply(entryEvent(t, coord.EventCreated, 11, 11, machineEntry{Name: "h", URL: srv.URL,
		Primaries: []string{"LY", "UA"}, Versions: map[string]string{"LY": lyOld.Version(), "UA": ua.Version()}}))
	d.view.apply(entryEvent(t, coord.EventCreated, 12, 12, machineEntry{Name: "p", URL: "http://127.0.0.1:1",
		Primaries: []string{"LY"}, Versions: map[string]string{"LY": lyNew.Version()}}))
	d.view.apply(entryEvent(t, coord.EventChanged, 13, 11, machineEntry{Name: "h", URL: srv.URL,
		Primaries: []string{"UA"}, Versions: map[string]string{"UA": ua.Version()}}))
	if c := list(d.view.candidates("LY")); !slices.Equal(c, []string{"p", "h"}) {
		t.Fatalf("LY candidates %v, want [p h] (h an earlier holder)", c)
	}
	*now = now.Add(time.Second)
	d.view.apply(coord.Event{Type: coord.EventDeleted, Name: "h", Revision: 14})

	date, _ := flight.ParseDate("2026-12-01")
	q := trip.Query{Src: "TLV", Dst: "JFK", Date: date}
	src, _, covered, heard := searchAlliance{d}.Ask(t.Context(), "h", q, gather.BothSides, []string{"LY", "UA"})
	if !slices.Equal(covered, []string{"UA"}) || !heard {
		t.Errorf("departed h covered %v (heard %v), want [UA] (its last entry named no LY version), heard", covered, heard)
	}
	for _, f := range src {
		if f.Seller != "UA" {
			t.Errorf("departed h sent a flight of %s", f.Seller)
		}
	}
}

// TestAskOfItselfOnceDepartedOnlyAtItsLastVersions: the delegate whose own entry vanished reads
// its copies only at the versions its last entry named, as another machine would ask it: not a
// seller its last entry did not name, nor a copy replaced since.
func TestAskOfItselfOnceDepartedOnlyAtItsLastVersions(t *testing.T) {
	ly, ua, af := testSeller(t, "LY", 3), testSeller(t, "UA", 2), testSeller(t, "AF", 1)
	m, err := New(Config{Name: "m", Alliance: "star", Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	m.copies = newCopies(map[string]*flight.Seller{"LY": ly, "UA": ua, "AF": af})
	now := listedOnClock(m.view)
	m.view.apply(entryEvent(t, coord.EventCreated, 11, 11, machineEntry{Name: "m", URL: "https://m",
		Primaries: []string{"LY", "UA"}, Versions: map[string]string{"LY": ly.Version(), "UA": "replaced"}}))
	date, _ := flight.ParseDate("2026-12-01")
	q := trip.Query{Src: "TLV", Dst: "JFK", Date: date}
	all := []string{"AF", "LY", "UA"}
	if _, _, covered, _ := (searchAlliance{m}).Ask(t.Context(), "m", q, gather.BothSides, all); !slices.Equal(covered, all) {
		t.Fatalf("live: covered %v, want %v (its copies, read as they are)", covered, all)
	}
	*now = now.Add(time.Second)
	m.view.apply(coord.Event{Type: coord.EventDeleted, Name: "m", Revision: 12})
	src, _, covered, _ := searchAlliance{m}.Ask(t.Context(), "m", q, gather.BothSides, all)
	if !slices.Equal(covered, []string{"LY"}) || len(src) != 3 {
		t.Errorf("departed: covered %v with %d flights, want [LY] with 3 (AF unnamed, UA's copy not the version named)", covered, len(src))
	}
}

// TestAskOfADepartedMachineThatFailsLeavesItAlone: a departed holder that does not answer (cut
// off: its port takes calls and answers none) costs one call its timeout; the next searches
// neither call it nor find it among the seller's candidates, and say at once that the seller is
// missing, until departedRetryAfter has passed. (Calls are counted by the delegate's
// departed_holder_calls_total: those it made, whether or not they reached the holder.)
func TestAskOfADepartedMachineThatFailsLeavesItAlone(t *testing.T) {
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer silent.Close()
	d, err := New(Config{Name: "d", Alliance: "star", Listen: "127.0.0.1:0", CallTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	now := listedOnClock(d.view)
	d.view.apply(entryEvent(t, coord.EventCreated, 11, 11, machineEntry{Name: "h", URL: silent.URL,
		Primaries: []string{"LY"}, Versions: map[string]string{"LY": "v1"}}))
	*now = now.Add(time.Second)
	d.view.apply(coord.Event{Type: coord.EventDeleted, Name: "h", Revision: 12})
	if c := list(d.view.candidates("LY")); !slices.Equal(c, []string{"h"}) {
		t.Fatalf("LY candidates %v, want [h] (departed)", c)
	}
	date, _ := flight.ParseDate("2026-12-01")
	q := trip.Query{Src: "TLV", Dst: "JFK", Date: date}
	calls := func() float64 {
		var m dto.Metric
		if err := d.metrics.departedAsks.Write(&m); err != nil {
			t.Fatal(err)
		}
		return m.GetCounter().GetValue()
	}
	var heard bool
	ask := func() []string {
		var covered []string
		_, _, covered, heard = searchAlliance{d}.Ask(t.Context(), "h", q, gather.BothSides, []string{"LY"})
		return covered
	}
	if covered := ask(); len(covered) > 0 || calls() != 1 || heard {
		t.Fatalf("first ask: covered %v after %v calls (heard %v), want nothing, not heard, after one call that timed out", covered, calls(), heard)
	}
	if c := list(d.view.candidates("LY")); len(c) > 0 {
		t.Errorf("after h failed: LY candidates %v, want none for departedRetryAfter", c)
	}
	if covered := ask(); len(covered) > 0 || calls() != 1 {
		t.Errorf("second ask: covered %v, %v calls; want h left alone (1 call)", covered, calls())
	}
	*now = now.Add(departedRetryAfter)
	if c := list(d.view.candidates("LY")); !slices.Equal(c, []string{"h"}) {
		t.Errorf("departedRetryAfter later: LY candidates %v, want [h]", c)
	}
	if ask(); calls() != 2 {
		t.Errorf("departedRetryAfter later: %v calls, want h called again (2)", calls())
	}
}
