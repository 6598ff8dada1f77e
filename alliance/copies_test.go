package alliance

import (
	"slices"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/placement"
)

func testSeller(t *testing.T, code string, n int) *flight.Seller {
	t.Helper()
	var flights []flight.Flight
	dep := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	for i := range n {
		flights = append(flights, flight.Flight{
			Number: code + string(rune('0'+i)), Seller: code, Src: "TLV", Dst: "JFK",
			Departure: dep.Add(time.Duration(i) * time.Hour), Arrival: dep.Add(time.Duration(i+10) * time.Hour),
			Price: flight.Cents(10000 + i), Seats: 10,
		})
	}
	s, err := flight.NewSeller(code, flights)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCopiesJoinerBringsItsSellersUntilCommitted(t *testing.T) {
	ly := testSeller(t, "LY", 2)
	s := newCopies(map[string]*flight.Seller{"LY": ly})
	h := s.holding("m1", false, nil)
	if !h.Joining || !slices.Equal(h.Brings, []string{"LY"}) || len(h.Primaries) != 0 {
		t.Fatalf("joiner's holding = %+v, want joining, brings [LY], no roles", h)
	}
	if h.Versions["LY"] != ly.Version() {
		t.Fatalf("holding version %q, want %q", h.Versions["LY"], ly.Version())
	}

	ua := testSeller(t, "UA", 1)
	unassigned, err := s.commit(s.generation(), placement.Assignment{Name: "m1", Primaries: []string{"UA"}, Backups: []string{}},
		map[string]*flight.Seller{"UA": ua})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(unassigned, []string{"LY"}) {
		t.Fatalf("unassigned = %v, want [LY] (brought, but the plan gave it away)", unassigned)
	}
	// Nothing is dropped by commit: LY stays readable until drop.
	if _, ok := s.seller("LY"); !ok {
		t.Fatal("commit dropped LY before drop was called")
	}
	h = s.holding("m1", false, nil)
	if h.Joining || len(h.Brings) != 0 || !slices.Equal(h.Primaries, []string{"UA"}) {
		t.Fatalf("after commit holding = %+v", h)
	}
	if got := s.drop(s.generation(), []string{"LY"}); !slices.Equal(got, []string{"LY"}) {
		t.Fatalf("drop = %v, want [LY]", got)
	}
	if _, ok := s.seller("LY"); ok {
		t.Fatal("LY still readable after drop")
	}
}

func TestCopiesDropKeepsCopiesAssignedAgain(t *testing.T) {
	ly := testSeller(t, "LY", 1)
	s := newCopies(map[string]*flight.Seller{"LY": ly})
	gen := s.generation()
	if _, err := s.commit(gen, placement.Assignment{Name: "m1"}, nil); err != nil {
		t.Fatal(err)
	}
	// A later round gives LY back before the drop runs.
	if _, err := s.commit(gen, placement.Assignment{Name: "m1", Backups: []string{"LY"}}, nil); err != nil {
		t.Fatal(err)
	}
	if got := s.drop(gen, []string{"LY"}); len(got) != 0 {
		t.Fatalf("drop removed %v though LY is assigned again", got)
	}
	if p, b := s.assignment(); len(p) != 0 || !slices.Equal(b, []string{"LY"}) {
		t.Fatalf("assignment = %v %v", p, b)
	}
}

func TestCopiesRejoinClaimsNothingAndBringsOwnSellers(t *testing.T) {
	ly := testSeller(t, "LY", 1)
	ua := testSeller(t, "UA", 1)
	s := newCopies(map[string]*flight.Seller{"LY": ly})
	gen := s.generation()
	if _, err := s.commit(gen, placement.Assignment{Name: "m1", Primaries: []string{"UA"}}, map[string]*flight.Seller{"UA": ua}); err != nil {
		t.Fatal(err)
	}
	s.rejoin()
	// After a completed round its own file data may be outdated: it is not offered again.
	h := s.holding("m1", false, func(string) bool { return false })
	if !h.Joining || len(h.Primaries)+len(h.Backups) != 0 || len(h.Brings) != 0 {
		t.Fatalf("after rejoin holding = %+v, want a joiner bringing nothing", h)
	}
	// A copy nobody else holds any more is brought back, so it is not lost.
	h = s.holding("m1", false, func(code string) bool { return code == "UA" })
	if !slices.Equal(h.Brings, []string{"UA"}) || h.Versions["UA"] != ua.Version() {
		t.Fatalf("rejoin with UA held nowhere else: holding = %+v", h)
	}
	// A round planned before the rejoin can neither commit nor drop here any more.
	if _, err := s.commit(gen, placement.Assignment{Name: "m1", Primaries: []string{"UA"}}, nil); err == nil {
		t.Fatal("a commit planned before the rejoin was adopted")
	}
	if got := s.drop(gen, []string{"UA"}); len(got) != 0 {
		t.Fatalf("a drop planned before the rejoin dropped %v", got)
	}
	if _, ok := s.seller("UA"); !ok {
		t.Fatal("rejoin dropped UA; it must stay readable until a round reassigns it")
	}
}

func TestCopiesServedSkipsSellersNotHeld(t *testing.T) {
	s := newCopies(map[string]*flight.Seller{"LY": testSeller(t, "LY", 1), "UA": testSeller(t, "UA", 1)})
	var codes []string
	for _, sel := range s.served([]string{"UA", "XX", "LY"}) {
		codes = append(codes, sel.Code())
	}
	if !slices.Equal(codes, []string{"LY", "UA"}) {
		t.Fatalf("served = %v, want [LY UA]", codes)
	}
}

func TestCopiesRefusesAnAssignmentWithoutData(t *testing.T) {
	s := newCopies(map[string]*flight.Seller{"LY": testSeller(t, "LY", 1)})
	if _, err := s.commit(s.generation(), placement.Assignment{Name: "m1", Primaries: []string{"LY", "UA"}}, nil); err == nil {
		t.Fatal("committed a BACKUP of UA that was never fetched")
	}
	if p, _ := s.assignment(); len(p) != 0 {
		t.Fatalf("a refused commit changed the roles: %v", p)
	}
}
