package flight

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// The indexes answer exactly what a scan of all flights would, in departure order.
func TestSellerIndexesMatchScan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		flights := genFlights(t, "LY", 60)
		s := mustSeller(t, "LY", flights)
		if s.Len() != len(flights) {
			t.Fatalf("Len = %d; want %d", s.Len(), len(flights))
		}
		airport := rapid.SampledFrom([]string{"TLV", "JFK", "LHR", "CDG", "SFO"}).Draw(t, "airport")
		day := testDay.AddDays(rapid.IntRange(-2, 2).Draw(t, "day"))
		var wantSrc, wantDst []Flight
		for _, f := range flights {
			if DateOf(f.Departure) != day {
				continue
			}
			if f.Src == airport {
				wantSrc = append(wantSrc, f)
			}
			if f.Dst == airport {
				wantDst = append(wantDst, f)
			}
		}
		for _, c := range []struct {
			name      string
			got, want []Flight
		}{{"BySrc", s.BySrc(airport, day), wantSrc}, {"ByDst", s.ByDst(airport, day), wantDst}} {
			if !sameSet(c.got, c.want) {
				t.Fatalf("%s(%s, %v) = %v; want %v", c.name, airport, day, c.got, c.want)
			}
			if !slices.IsSortedFunc(c.got, func(a, b Flight) int { return a.Departure.Compare(b.Departure) }) {
				t.Fatalf("%s not in departure order: %v", c.name, c.got)
			}
		}
	})
}

func sameSet(a, b []Flight) bool {
	byNumber := func(x, y Flight) int { return strings.Compare(x.Number, y.Number) }
	a, b = slices.Clone(a), slices.Clone(b)
	slices.SortFunc(a, byNumber)
	slices.SortFunc(b, byNumber)
	return slices.Equal(a, b)
}

// A Seller is immutable: what its readers get back is theirs to change.
func TestSellerIsImmutable(t *testing.T) {
	dep := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	in := []Flight{{"LY001", "LY", "TLV", "JFK", dep, dep.Add(11 * time.Hour), 51200, 180}}
	s := mustSeller(t, "LY", in)
	v := s.Version()
	in[0].Price = 1
	s.Flights()[0].Price = 2
	s.BySrc("TLV", testDay)[0].Price = 3
	s.ByDst("JFK", testDay)[0].Price = 4
	page, _, _ := s.Page("", 10)
	page[0].Price = 5
	if got := s.Flights()[0].Price; got != 51200 || s.Version() != v {
		t.Fatalf("a caller changed the seller: price %s, version %s -> %s", got, v, s.Version())
	}
}

func TestSellerVersion(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		flights := genFlights(t, "LY", 20)
		s := mustSeller(t, "LY", flights)

		// Input order does not matter, nor the time zone the times were given in.
		shuffled := rapid.Permutation(flights).Draw(t, "order")
		zone := time.FixedZone("X", 3*3600)
		for i := range shuffled {
			shuffled[i].Departure = shuffled[i].Departure.In(zone)
		}
		if v := mustSeller(t, "LY", shuffled).Version(); v != s.Version() {
			t.Fatalf("same flights, other order: version %s; want %s", v, s.Version())
		}
		if len(flights) == 0 {
			return
		}
		// Any change to any field changes the version.
		changed := slices.Clone(flights)
		i := rapid.IntRange(0, len(changed)-1).Draw(t, "i")
		switch rapid.IntRange(0, 5).Draw(t, "field") {
		case 0:
			changed[i].Number += "X"
		case 1:
			changed[i].Dst = map[bool]string{true: "SFO", false: "SEA"}[changed[i].Src == "SFO"]
		case 2:
			changed[i].Departure = changed[i].Departure.Add(-time.Second)
		case 3:
			changed[i].Arrival = changed[i].Arrival.Add(time.Second)
		case 4:
			changed[i].Price++
		case 5:
			changed[i].Seats++
		}
		if mustSeller(t, "LY", changed).Version() == s.Version() {
			t.Fatalf("changing flight %s left the version at %s", flights[i].Number, s.Version())
		}
		if mustSeller(t, "LY", flights[1:]).Version() == s.Version() {
			t.Fatal("dropping a flight left the version unchanged")
		}
	})
}

func TestNewSellerRefuses(t *testing.T) {
	dep := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	ok := Flight{"LY001", "LY", "TLV", "JFK", dep, dep.Add(time.Hour), 100, 1}
	other, backwards := ok, ok
	other.Seller = "UA"
	backwards.Number, backwards.Arrival = "LY002", dep.Add(-time.Hour)
	cases := []struct {
		code    string
		flights []Flight
		want    string
	}{
		{"ly", nil, `new seller: seller: "ly" is not a seller code`},
		{"LY", []Flight{ok, other}, "seller LY: flight LY001: seller: UA is not the seller being built"},
		{"LY", []Flight{ok, ok}, "seller LY: flight: LY001 appears twice"},
		{"LY", []Flight{ok, backwards}, `seller LY: flight "LY002": arrival:`},
	}
	for _, c := range cases {
		_, err := NewSeller(c.code, c.flights)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || !errors.Is(err, ErrInvalid) {
			t.Errorf("NewSeller(%s, %v) = %v; want %q wrapping ErrInvalid", c.code, c.flights, err, c.want)
		}
	}
}

// Readers share a Seller without locks; run with -race to make this test mean something.
func TestSellerConcurrentReaders(t *testing.T) {
	s := mustSeller(t, "LY", genFlightsN("LY", 20))
	want := len(s.BySrc("TLV", testDay))
	done := make(chan error)
	for range 8 {
		go func() {
			for range 100 {
				if n := len(s.BySrc("TLV", testDay)); n != want {
					done <- errors.New("BySrc changed under concurrent reads")
					return
				}
				if _, _, err := s.Page("", 7); err != nil {
					done <- err
					return
				}
				_ = s.Flights()
			}
			done <- nil
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

func TestSellerFlightByNumber(t *testing.T) {
	day := func(h int) time.Time { return time.Date(2026, 12, 1, h, 0, 0, 0, time.UTC) }
	flights := []Flight{
		{Number: "LY003", Seller: "LY", Src: "TLV", Dst: "JFK", Departure: day(8), Arrival: day(19), Price: 100, Seats: 5},
		{Number: "LY001", Seller: "LY", Src: "TLV", Dst: "LHR", Departure: day(6), Arrival: day(11), Price: 90, Seats: 3},
	}
	s, err := NewSeller("LY", flights)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range flights {
		got, ok := s.Flight(f.Number)
		if !ok || got != f {
			t.Errorf("Flight(%s) = %+v, %v; want %+v", f.Number, got, ok, f)
		}
	}
	if _, ok := s.Flight("LY002"); ok {
		t.Error("Flight(LY002) found a flight the seller does not have")
	}
}
