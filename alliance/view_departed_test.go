package alliance

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/coord"
	"flightalliance/soap"
)

// listedOnClock dates v's departures by the clock it returns, first 2026-11-27 01:00 UTC, and lists
// v's folder (empty), as the tests of departed machines begin.
func listedOnClock(v *view) *time.Time {
	now := time.Date(2026, 11, 27, 1, 0, 0, 0, time.UTC)
	v.setClock(&now)
	v.apply(coord.Event{Type: coord.EventResync, Revision: 10})
	return &now
}

// setClock makes the view date departures by *now.
func (v *view) setClock(now *time.Time) {
	v.mirror.Update(func(s *viewState) { s.now = func() time.Time { return *now } })
}

// TestViewAsksDepartedHoldersLast: a holder whose entry vanishes (its session ended) is still a
// candidate for its sellers, after every live one, for departedAskable, and asked for the
// versions its last entry named; not once the seller's current version is another, nor once it
// is live again (it is then asked as a live machine), nor past the window.
func TestViewAsksDepartedHoldersLast(t *testing.T) {
	v := newView(slog.New(slog.DiscardHandler), nil)
	now := listedOnClock(v)
	a := machineEntry{Name: "a", URL: "https://a", Primaries: []string{"LY"}, Versions: map[string]string{"LY": "v1"}}
	b := machineEntry{Name: "b", URL: "https://b", Backups: []string{"LY"}, Primaries: []string{"UA"}, Versions: map[string]string{"LY": "v1", "UA": "u1"}}
	c := machineEntry{Name: "c", URL: "https://c", Backups: []string{"UA"}, Versions: map[string]string{"UA": "u1"}}
	v.apply(entryEvent(t, coord.EventCreated, 11, 11, a))
	v.apply(entryEvent(t, coord.EventCreated, 12, 12, b))
	v.apply(entryEvent(t, coord.EventCreated, 13, 13, c))
	if _, _, ok := v.departedAt("b", []string{"LY"}); ok {
		t.Fatal("a live machine is not departed")
	}

	*now = now.Add(time.Second)
	v.apply(coord.Event{Type: coord.EventDeleted, Name: "b", Revision: 14})
	if got := list(v.candidates("LY")); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("b departed: LY candidates %v, want [a b] (b last)", got)
	}
	if got := list(v.candidatesFrom("c", "UA")); !slices.Equal(got, []string{"c", "b"}) {
		t.Errorf("b departed: UA candidates from c %v, want [c b]", got)
	}
	url, versions, ok := v.departedAt("b", []string{"LY", "UA", "AF"})
	wantVersions := []soap.SellerVersion{{Seller: "LY", Version: "v1"}, {Seller: "UA", Version: "u1"}}
	if !ok || url != "https://b" || !slices.Equal(versions, wantVersions) {
		t.Errorf("departedAt(b) = %q %v %v, want https://b %v true", url, versions, ok, wantVersions)
	}
	if _, _, ok := v.departedAt("b", []string{"AF"}); ok {
		t.Error("departedAt(b) for a seller its entry named no version of: want not ok")
	}

	*now = now.Add(time.Second)
	v.apply(coord.Event{Type: coord.EventDeleted, Name: "a", Revision: 15})
	if got := list(v.candidates("LY")); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("a departed after b: LY candidates %v, want [a b] (the latest first)", got)
	}

	// d brings LY's data anew at v2 and becomes its primary: a and b have v1.
	d := machineEntry{Name: "d", URL: "https://d", Primaries: []string{"LY"}, Versions: map[string]string{"LY": "v2"}}
	v.apply(entryEvent(t, coord.EventCreated, 16, 16, d))
	if got := list(v.candidates("LY")); !slices.Equal(got, []string{"d"}) {
		t.Errorf("LY's current version is v2: candidates %v, want [d] (the departed have v1)", got)
	}
	*now = now.Add(time.Second)
	v.apply(coord.Event{Type: coord.EventDeleted, Name: "d", Revision: 17})
	if got := list(v.candidates("LY")); !slices.Equal(got, []string{"d"}) {
		t.Errorf("d departed too: candidates %v, want [d] (v2 is the version a primary last named; a and b have v1)", got)
	}

	// b rejoins: live again, it is asked as a live machine.
	v.apply(entryEvent(t, coord.EventCreated, 18, 18, machineEntry{Name: "b", URL: "https://b2", Brings: []string{"UA"}}))
	if _, _, ok := v.departedAt("b", []string{"LY"}); ok {
		t.Error("b is live again: want not departed")
	}
	if url, ok := v.url("b"); !ok || url != "https://b2" {
		t.Errorf("b's url %q %v, want its new entry's", url, ok)
	}

	*now = now.Add(departedAskable + time.Second)
	if got := list(v.candidates("LY")); slices.Contains(got, "a") || slices.Contains(got, "d") {
		t.Errorf("past departedAskable: LY candidates %v, want neither a nor d", got)
	}
	if _, _, ok := v.departedAt("a", []string{"LY"}); ok {
		t.Error("past departedAskable: a is not asked")
	}

	// A machine a re-listing no longer shows departed meanwhile.
	v.apply(coord.Event{Type: coord.EventResync, Revision: 30, Children: []coord.Child{}})
	if _, _, ok := v.departedAt("c", []string{"UA"}); !ok {
		t.Error("c, not in the re-listing, is departed")
	}
}

// TestRelevantAnswersOnlyTheVersionsAsked: a machine asked for the flights of sellers at named
// versions answers for a copy only at that version (as if it held no other), for an unnamed
// seller from the copy it has, and refuses bad Versions with a Client fault naming the field.
func TestRelevantAnswersOnlyTheVersionsAsked(t *testing.T) {
	ly, ua := testSeller(t, "LY", 3), testSeller(t, "UA", 2)
	m := &Machine{copies: newCopies(map[string]*flight.Seller{"LY": ly, "UA": ua})}
	date := "2026-12-01"
	for _, tc := range []struct {
		versions []soap.SellerVersion
		want     []string
	}{
		{nil, []string{"LY", "UA"}},
		{[]soap.SellerVersion{{Seller: "LY", Version: ly.Version()}}, []string{"LY", "UA"}},
		{[]soap.SellerVersion{{Seller: "LY", Version: "other"}}, []string{"UA"}},
		{[]soap.SellerVersion{{Seller: "LY", Version: "other"}, {Seller: "UA", Version: ua.Version()}}, []string{"UA"}},
		{[]soap.SellerVersion{{Seller: "LY", Version: "x"}, {Seller: "UA", Version: "y"}}, []string{}},
	} {
		both, err := m.relevantBoth(&soap.RelevantFlightsRequest{Src: "TLV", Dst: "JFK", Date: date, Sellers: []string{"LY", "UA"}, Versions: tc.versions})
		if err != nil {
			t.Fatalf("%v: %v", tc.versions, err)
		}
		if !slices.Equal(both.Sellers, tc.want) || len(both.FromSrc) != flightsOf(tc.want) || len(both.ToDst) != flightsOf(tc.want) {
			t.Errorf("getRelevantFlights %v: sellers %v, %d and %d flights; want %v", tc.versions, both.Sellers, len(both.FromSrc), len(both.ToDst), tc.want)
		}
		one, err := m.relevant("TLV", "Src", date, []string{"LY", "UA"}, tc.versions, (*flight.Seller).BySrc)
		if err != nil {
			t.Fatalf("%v: %v", tc.versions, err)
		}
		if !slices.Equal(one.Sellers, tc.want) || len(one.Flights) != flightsOf(tc.want) {
			t.Errorf("getRelevantFlightsBySrc %v: sellers %v, %d flights; want %v", tc.versions, one.Sellers, len(one.Flights), tc.want)
		}
	}
	for _, tc := range []struct {
		versions []soap.SellerVersion
		want     string
	}{
		{[]soap.SellerVersion{{Seller: "l y", Version: "v"}}, `Versions[0].Seller: "l y" is not a seller code`},
		{[]soap.SellerVersion{{Seller: "LY", Version: "v"}, {Seller: "UA"}}, "Versions[1].Version: empty"},
		{[]soap.SellerVersion{{Seller: "LY", Version: "v"}, {Seller: "LY", Version: "w"}}, "Versions[1].Seller: seller LY is named twice"},
	} {
		_, err := m.relevantBoth(&soap.RelevantFlightsRequest{Src: "TLV", Dst: "JFK", Date: date, Versions: tc.versions})
		var f *soap.Fault
		if !errors.As(err, &f) || f.Code != soap.CodeClient || !strings.Contains(f.String, tc.want) {
			t.Errorf("%v: %v, want a Client fault with %q", tc.versions, err, tc.want)
		}
	}
}

// flightsOf is how many flights testSeller gave the sellers (LY 3, UA 2).
func flightsOf(sellers []string) (n int) {
	for _, s := range sellers {
		n += map[string]int{"LY": 3, "UA": 2}[s]
	}
	return n
}

// TestViewDoesNotAskADepartedCopyOfAReplacedVersion: a and b held LY at v1 and departed; d
// brought v2 and became LY's primary, then departed too. No live machine names LY's version,
// but the view saw v2 named last: a and b are not asked (their answer would be the replaced
// data, complete), d is.
func TestViewDoesNotAskADepartedCopyOfAReplacedVersion(t *testing.T) {
	v := newView(slog.New(slog.DiscardHandler), nil)
	now := listedOnClock(v)
	v.apply(entryEvent(t, coord.EventCreated, 11, 11, machineEntry{Name: "a", URL: "https://a", Primaries: []string{"LY"}, Versions: map[string]string{"LY": "v1"}}))
	v.apply(entryEvent(t, coord.EventCreated, 12, 12, machineEntry{Name: "b", URL: "https://b", Backups: []string{"LY"}, Versions: map[string]string{"LY": "v1"}}))
	*now = now.Add(time.Second)
	v.apply(coord.Event{Type: coord.EventDeleted, Name: "a", Revision: 13})
	v.apply(coord.Event{Type: coord.EventDeleted, Name: "b", Revision: 14})
	if got := list(v.candidates("LY")); !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("a and b departed at LY's last known version: candidates %v, want [a b]", got)
	}
	v.apply(entryEvent(t, coord.EventCreated, 15, 15, machineEntry{Name: "d", URL: "https://d", Primaries: []string{"LY"}, Versions: map[string]string{"LY": "v2"}}))
	*now = now.Add(time.Second)
	v.apply(coord.Event{Type: coord.EventDeleted, Name: "d", Revision: 16})
	if got := list(v.candidates("LY")); !slices.Equal(got, []string{"d"}) {
		t.Errorf("d (v2) departed after a and b (v1): candidates %v, want [d]", got)
	}
	// A view that never saw a version of a seller asks no departed machine for it.
	fresh := newView(slog.New(slog.DiscardHandler), nil)
	fresh.setClock(now)
	fresh.apply(coord.Event{Type: coord.EventResync, Revision: 10, Children: []coord.Child{}})
	fresh.apply(entryEvent(t, coord.EventCreated, 11, 11, machineEntry{Name: "b", URL: "https://b", Backups: []string{"LY"}, Versions: map[string]string{"LY": "v1"}}))
	fresh.apply(coord.Event{Type: coord.EventDeleted, Name: "b", Revision: 12})
	if got := list(fresh.candidates("LY")); len(got) != 0 {
		t.Errorf("no primary ever named LY's version: candidates %v, want none", got)
	}
}

// TestDeparturesFallingOutOfTheWindowEmptyTheCaches: the view calls onDataChange when a
// departure falls out of departedAskable (the delegate's caches may hold answers only that
// machine's copies made complete), once per departure, and not for a machine back in the view.
func TestDeparturesFallingOutOfTheWindowEmptyTheCaches(t *testing.T) {
	purged := make(chan struct{}, 16)
	v := newView(slog.New(slog.DiscardHandler), func() { purged <- struct{}{} })
	var mu sync.Mutex
	now := time.Date(2026, 11, 27, 1, 0, 0, 0, time.UTC)
	v.mirror.Update(func(s *viewState) {
		s.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	})
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	v.apply(coord.Event{Type: coord.EventResync, Revision: 10})
	v.apply(entryEvent(t, coord.EventCreated, 11, 11, machineEntry{Name: "a", URL: "https://a", Primaries: []string{"LY"}, Versions: map[string]string{"LY": "v1"}}))
	v.apply(entryEvent(t, coord.EventCreated, 12, 12, machineEntry{Name: "b", URL: "https://b", Backups: []string{"LY"}, Versions: map[string]string{"LY": "v1"}}))
	drain := func() {
		for {
			select {
			case <-purged:
			default:
				return
			}
		}
	}
	v.apply(coord.Event{Type: coord.EventDeleted, Name: "a", Revision: 13})
	v.apply(coord.Event{Type: coord.EventDeleted, Name: "b", Revision: 14})
	v.apply(entryEvent(t, coord.EventCreated, 15, 15, machineEntry{Name: "b", URL: "https://b", Backups: []string{"LY"}, Versions: map[string]string{"LY": "v1"}}))
	drain() // the folds' own purges

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); v.expireDepartures(ctx) }()
	defer func() { cancel(); <-done }()

	advance(departedAskable - 20*time.Millisecond) // a's window ends 20 ms from now, by the view's clock
	v.apply(entryEvent(t, coord.EventChanged, 16, 15, machineEntry{Name: "b", URL: "https://b", Backups: []string{"LY"}, Versions: map[string]string{"LY": "v1"}, Epoch: 1}))
	drain()
	select {
	case <-purged:
		t.Fatal("purged before a's departure fell out of the window")
	case <-time.After(5 * time.Millisecond):
	}
	advance(time.Second)
	select {
	case <-purged:
	case <-time.After(10 * time.Second):
		t.Fatal("a's departure fell out of the window: the caches were not emptied")
	}
	select {
	case <-purged:
		t.Fatal("purged twice for one departure (b is back in the view)")
	case <-time.After(100 * time.Millisecond):
	}
}
