package merge

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"flightalliance/soap"
)

var tlvJFK = Query{Src: "TLV", Dst: "JFK", Date: "2026-12-01"}

func flightsOf(a Answer) []string {
	var out []string
	for _, t := range a.Trips {
		var fs []string
		for _, l := range t.Legs {
			fs = append(fs, l.Flight)
		}
		out = append(out, strings.Join(fs, "+"))
	}
	return out
}

func TestMergeSortsByPriceThenArrivalThenFlights(t *testing.T) {
	star := &soap.GetTripsResponse{Complete: true, Trips: []soap.Trip{
		wireTrip("600.00", leg("LY001", "TLV", "JFK", "08:00", "19:10", "600.00")),
		wireTrip("500.00", leg("LY002", "TLV", "JFK", "09:00", "20:00", "500.00")),
		// cheaper as integers than as strings would say ("99.5" > "500.00" lexically)
		wireTrip("99.50", leg("LY003", "TLV", "ATH", "06:00", "08:00", "49.5"), leg("UA010", "ATH", "JFK", "09:00", "15:00", "50")),
	}}
	sky := &soap.GetTripsResponse{Complete: true, Trips: []soap.Trip{
		wireTrip("500.00", leg("AF100", "TLV", "JFK", "07:00", "18:00", "500.00")), // same price, earlier arrival
		wireTrip("500", leg("AF001", "TLV", "JFK", "09:30", "20:00", "500.00")),    // same price and arrival: flight number
	}}
	a := Merge(tlvJFK, []DelegateAnswer{{Alliance: "star", Resp: star}, {Alliance: "sky", Resp: sky}})

	want := []string{"LY003+UA010", "AF100", "AF001", "LY002", "LY001"}
	if got := flightsOf(a); !slices.Equal(got, want) {
		t.Fatalf("order = %v, want %v", got, want)
	}
	if a.Trips[0].Price != "99.50" || a.Trips[0].Legs[0].Price != "49.50" || a.Trips[2].Price != "500.00" {
		t.Errorf("prices not normalised: %+v", a.Trips[:3])
	}
	for _, tr := range a.Trips {
		wantAlliance := "star"
		if strings.HasPrefix(tr.Legs[0].Flight, "AF") {
			wantAlliance = "sky"
		}
		for _, l := range tr.Legs {
			if l.Alliance != wantAlliance {
				t.Errorf("leg %s stamped %q, want %q (the registration name)", l.Flight, l.Alliance, wantAlliance)
			}
		}
	}
	if !a.Complete || len(a.Alliances) != 2 || a.Alliances[0].Name != "sky" || a.Alliances[1].Name != "star" {
		t.Errorf("alliances = %+v complete=%v", a.Alliances, a.Complete)
	}
}

func TestMergeReportsIncompleteAlliances(t *testing.T) {
	ok := &soap.GetTripsResponse{Complete: true, Trips: []soap.Trip{wireTrip("1.00", leg("LY001", "TLV", "JFK", "08:00", "19:00", "1.00"))}}
	partial := &soap.GetTripsResponse{Complete: false, MissingSellers: []string{"UA", "BA", "UA"},
		Trips: []soap.Trip{wireTrip("2.00", leg("AA001", "TLV", "JFK", "08:00", "19:00", "2.00"))}}
	claimsComplete := &soap.GetTripsResponse{Complete: true, MissingSellers: []string{"KL"}}
	a := Merge(tlvJFK, []DelegateAnswer{
		{Alliance: "star", Resp: ok},
		{Alliance: "oneworld", Resp: partial},
		{Alliance: "down", Err: errors.New("delegate did not answer within 3s")},
		{Alliance: "liar", Resp: claimsComplete},
	})
	if a.Complete {
		t.Fatal("answer is complete although alliances are missing")
	}
	got := map[string]AllianceStatus{}
	for _, s := range a.Alliances {
		got[s.Name] = s
	}
	if s := got["oneworld"]; s.Complete || !slices.Equal(s.MissingSellers, []string{"BA", "UA"}) {
		t.Errorf("oneworld = %+v, want incomplete missing [BA UA]", s)
	}
	if s := got["down"]; s.Complete || s.Error == "" || s.MissingSellers == nil {
		t.Errorf("down = %+v, want incomplete with an error and missing_sellers []", s)
	}
	if s := got["liar"]; s.Complete {
		t.Errorf("liar = %+v: a response naming missing sellers is not complete", s)
	}
	if s := got["star"]; !s.Complete {
		t.Errorf("star = %+v, want complete", s)
	}
	if fl := flightsOf(a); !slices.Equal(fl, []string{"LY001", "AA001"}) {
		t.Errorf("trips = %v: the partial alliance's trips are still shown", fl)
	}
	b, _ := json.Marshal(a)
	if !strings.Contains(string(b), `"missing_sellers":[]`) || strings.Contains(string(b), "null") {
		t.Errorf("JSON has null where [] is due: %s", b)
	}
}

func TestMergeRefusesMalformedAnswers(t *testing.T) {
	for name, bad := range map[string]soap.Trip{
		"no legs":         {Price: "1.00"},
		"three legs":      wireTrip("3.00", leg("LY1", "TLV", "ATH", "01:00", "02:00", "1"), leg("LY2", "ATH", "ROM", "03:00", "04:00", "1"), leg("LY3", "ROM", "JFK", "05:00", "06:00", "1")),
		"bad leg price":   wireTrip("", leg("LY1", "TLV", "JFK", "01:00", "02:00", "cheap")),
		"bad trip price":  wireTrip("1,00", leg("LY1", "TLV", "JFK", "01:00", "02:00", "1.00")),
		"price not a sum": wireTrip("9.00", leg("LY1", "TLV", "JFK", "01:00", "02:00", "1.00")),
		"bad arrival":     {Legs: []soap.Leg{{Flight: "LY1", Seller: "LY", Departure: "2026-12-01T01:00:00Z", Arrival: "tomorrow", Price: "1"}}},
		"arrives before":  wireTrip("", leg("LY1", "TLV", "JFK", "05:00", "02:00", "1.00")),
		"negative seats":  {Legs: []soap.Leg{{Flight: "LY1", Seller: "LY", Src: "TLV", Dst: "JFK", Departure: "2026-12-01T01:00:00Z", Arrival: "2026-12-01T02:00:00Z", Price: "1", Seats: -1}}},
		// Trips of another query: a delegate's bug, or an answer to another search.
		"from elsewhere":   wireTrip("", leg("LY1", "CDG", "JFK", "01:00", "02:00", "1.00")),
		"to elsewhere":     wireTrip("", leg("LY1", "TLV", "LHR", "01:00", "02:00", "1.00")),
		"on another day":   {Legs: []soap.Leg{{Flight: "LY1", Seller: "LY", Src: "TLV", Dst: "JFK", Departure: "2026-12-02T01:00:00Z", Arrival: "2026-12-02T02:00:00Z", Price: "1"}}},
		"not connecting":   wireTrip("", leg("LY1", "TLV", "ATH", "01:00", "02:00", "1"), leg("LY2", "ROM", "JFK", "03:00", "04:00", "1")),
		"via src":          wireTrip("", leg("LY1", "TLV", "TLV", "01:00", "02:00", "1"), leg("LY2", "TLV", "JFK", "03:00", "04:00", "1")),
		"leaves too early": wireTrip("", leg("LY1", "TLV", "ATH", "01:00", "03:00", "1"), leg("LY2", "ATH", "JFK", "02:00", "04:00", "1")),
		// Legs the answer would show as they came: airports and instants as docs/api.md has them.
		"no stop airport":    wireTrip("", leg("LY1", "TLV", "", "01:00", "02:00", "1"), leg("LY2", "", "JFK", "03:00", "04:00", "1")),
		"stop in lower case": wireTrip("", leg("LY1", "TLV", "ath", "01:00", "02:00", "1"), leg("LY2", "ath", "JFK", "03:00", "04:00", "1")),
		"not in UTC":         {Legs: []soap.Leg{{Flight: "LY1", Seller: "LY", Src: "TLV", Dst: "JFK", Departure: "2026-12-01T05:00:00+02:00", Arrival: "2026-12-01T04:00:00Z", Price: "1"}}},
		"arrival not in UTC": {Legs: []soap.Leg{{Flight: "LY1", Seller: "LY", Src: "TLV", Dst: "JFK", Departure: "2026-12-01T01:00:00Z", Arrival: "2026-12-01T09:00:00+05:00", Price: "1"}}},
	} {
		good := wireTrip("1.00", leg("LY9", "TLV", "JFK", "01:00", "02:00", "1.00"))
		a := Merge(tlvJFK, []DelegateAnswer{{Alliance: "star", Resp: &soap.GetTripsResponse{Complete: true, Trips: []soap.Trip{good, bad}}}})
		if a.Complete || len(a.Trips) != 0 || !strings.HasPrefix(a.Alliances[0].Error, "malformed answer: trip 2") {
			t.Errorf("%s: got %+v, want the alliance refused as malformed", name, a)
		}
	}
}

// TestMergeRefusesMalformedSharedLegs: an answer with shared legs whose trips name a leg it does
// not have, have both their own legs and shared ones, or whose shared leg is malformed, is refused
// as malformed — the alliance incomplete, none of its trips shown.
func TestMergeRefusesMalformedSharedLegs(t *testing.T) {
	one := leg("LY1", "TLV", "JFK", "01:00", "02:00", "1.00")
	for name, tc := range map[string]struct {
		shared []soap.Leg
		bad    soap.Trip
		want   string
	}{
		"index past the end": {[]soap.Leg{one}, soap.Trip{Price: "1.00", LegIndexes: []int{1}}, "malformed answer: trip 2: leg 1: LegIndexes 1 is not a position"},
		"negative index":     {[]soap.Leg{one}, soap.Trip{LegIndexes: []int{0, -1}}, "malformed answer: trip 2: leg 2: LegIndexes -1"},
		"both forms":         {[]soap.Leg{one}, soap.Trip{Legs: []soap.Leg{one}, LegIndexes: []int{0}}, "malformed answer: trip 2: both Legs and LegIndexes"},
		"three shared legs":  {[]soap.Leg{one}, soap.Trip{LegIndexes: []int{0, 0, 0}}, "malformed answer: trip 2: 3 legs"},
		"one leg twice": {[]soap.Leg{one, leg("LY5", "TLV", "TLV", "01:00", "02:00", "1.00")}, soap.Trip{LegIndexes: []int{1, 1}},
			"malformed answer: trip 2: "},
		"bad shared leg": {[]soap.Leg{one, leg("LY2", "TLV", "JFK", "05:00", "02:00", "1.00")}, soap.Trip{LegIndexes: []int{0}},
			"malformed answer: shared leg 2: "},
	} {
		good := soap.Trip{Price: "1.00", LegIndexes: []int{0}}
		resp := &soap.GetTripsResponse{Complete: true, SharedLegs: tc.shared, Trips: []soap.Trip{good, tc.bad}}
		a := Merge(tlvJFK, []DelegateAnswer{{Alliance: "star", Resp: resp}})
		if a.Complete || len(a.Trips) != 0 || !strings.HasPrefix(a.Alliances[0].Error, tc.want) {
			t.Errorf("%s: got %+v, want the alliance refused: %s", name, a, tc.want)
		}
	}
}

func TestMergeHonoursTheSellerFilter(t *testing.T) {
	q := tlvJFK
	q.Sellers = []string{"LY"}
	resp := &soap.GetTripsResponse{Complete: true, Trips: []soap.Trip{
		wireTrip("1.00", leg("LY001", "TLV", "JFK", "01:00", "02:00", "1.00")),
		wireTrip("2.00", leg("LY002", "TLV", "ATH", "01:00", "02:00", "1.00"), leg("UA003", "ATH", "JFK", "03:00", "04:00", "1.00")),
	}}
	a := Merge(q, []DelegateAnswer{{Alliance: "star", Resp: resp}})
	if got := flightsOf(a); !slices.Equal(got, []string{"LY001"}) {
		t.Errorf("trips = %v, want only LY001 (UA is not in servers=LY)", got)
	}
	if !slices.Equal(a.Query.Servers, []string{"LY"}) {
		t.Errorf("query echo = %+v", a.Query)
	}
}

// TestMergeIsDeterministic: whatever order the delegates answer in and list their trips, the
// answer is the same bytes, and it is sorted by (price, final arrival, flights).
func TestMergeIsDeterministic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		alliances := []string{"sky", "star", "oneworld"}
		var answers []DelegateAnswer
		for _, name := range alliances {
			n := rapid.IntRange(0, 8).Draw(t, name+"-trips")
			resp := &soap.GetTripsResponse{Complete: rapid.Bool().Draw(t, name+"-complete")}
			for i := range n {
				// few distinct prices and times, so that ties are common
				price := rapid.SampledFrom([]string{"100.00", "100", "99.99", "250.50"}).Draw(t, "price")
				arr := rapid.SampledFrom([]string{"19:00", "20:00"}).Draw(t, "arr")
				fl := rapid.SampledFrom([]string{"LY001", "LY002", "UA001"}).Draw(t, "flight")
				_ = i
				resp.Trips = append(resp.Trips, wireTrip("", leg(fl, "TLV", "JFK", "08:00", arr, price)))
			}
			answers = append(answers, DelegateAnswer{Alliance: name, Resp: resp})
		}
		want, _ := json.Marshal(Merge(tlvJFK, answers))

		shuffled := slices.Clone(answers)
		seed := rapid.Uint64().Draw(t, "seed")
		r := rand.New(rand.NewPCG(seed, seed))
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		for i := range shuffled {
			resp := *shuffled[i].Resp
			resp.Trips = slices.Clone(resp.Trips)
			r.Shuffle(len(resp.Trips), func(a, b int) { resp.Trips[a], resp.Trips[b] = resp.Trips[b], resp.Trips[a] })
			shuffled[i].Resp = &resp
		}
		got := Merge(tlvJFK, shuffled)
		if b, _ := json.Marshal(got); string(b) != string(want) {
			t.Fatalf("answer depends on arrival order:\n%s\n%s", want, b)
		}
		for i := 1; i < len(got.Trips); i++ {
			p, c := got.Trips[i-1], got.Trips[i]
			pc, _ := parseCents(p.Price)
			cc, _ := parseCents(c.Price)
			if pc > cc || (pc == cc && p.Legs[0].Arrival > c.Legs[0].Arrival) ||
				(pc == cc && p.Legs[0].Arrival == c.Legs[0].Arrival && p.Legs[0].Flight > c.Legs[0].Flight) {
				t.Fatalf("trips %d and %d out of order: %+v then %+v", i-1, i, p, c)
			}
		}
	})
}

// TestMergeRefusesTotalsThatCountNothing: a Total below zero, below the trips sent, or past what
// a JSON client reads exactly is refused as malformed (summed, such totals overflowed into a
// negative total shown as complete); 0 stays a delegate that does not count.
func TestMergeRefusesTotalsThatCountNothing(t *testing.T) {
	two := []soap.Trip{
		wireTrip("1.00", leg("LY1", "TLV", "JFK", "01:00", "02:00", "1.00")),
		wireTrip("2.00", leg("LY2", "TLV", "JFK", "01:00", "02:00", "2.00")),
	}
	top := tlvJFK
	top.Limit = 2 // the top 2 of a longer list may be sent
	for _, total := range []int{-1, 1, maxTotal + 1, math.MaxInt} {
		a := Merge(top, []DelegateAnswer{
			{Alliance: "star", Resp: &soap.GetTripsResponse{Complete: true, Total: total, Trips: two}},
			{Alliance: "sky", Resp: &soap.GetTripsResponse{Complete: true, Total: maxTotal, Trips: two}},
		})
		if a.Complete || a.Alliances[1].Complete || !strings.HasPrefix(a.Alliances[1].Error, "malformed answer: Total") || a.Total != maxTotal {
			t.Errorf("Total %d: got total %d, %+v; want star refused as malformed, sky's total only", total, a.Total, a.Alliances)
		}
	}
	for _, total := range []int{0, 2, 40, maxTotal} {
		a := Merge(top, []DelegateAnswer{{Alliance: "star", Resp: &soap.GetTripsResponse{Complete: true, Total: total, Trips: two}}})
		if !a.Complete || len(a.Trips) != 2 || a.Total != max(total, 2) {
			t.Errorf("Total %d: got complete %v, %d trips, total %d", total, a.Complete, len(a.Trips), a.Total)
		}
	}
}

// TestMergeRefusesAFlightShownTwice: an alliance's answer that shows a trip twice, or one flight
// with two sets of values (inline or shared), is refused as malformed; one flight in many trips,
// the same each time, is an answer.
func TestMergeRefusesAFlightShownTwice(t *testing.T) {
	direct := leg("LY1", "TLV", "JFK", "01:00", "02:00", "1.00")
	dearer := leg("LY1", "TLV", "JFK", "01:00", "02:00", "5.00")
	first, then := leg("LY2", "TLV", "ATH", "01:00", "02:00", "1.00"), leg("UA3", "ATH", "JFK", "03:00", "04:00", "1.00")
	later := leg("UA3", "ATH", "JFK", "05:00", "06:00", "1.00")
	other := leg("LY4", "TLV", "ATH", "00:30", "02:30", "2.00")
	for name, tc := range map[string]struct {
		resp *soap.GetTripsResponse
		want string // "" for an answer
	}{
		"a trip twice": {&soap.GetTripsResponse{Complete: true, Trips: []soap.Trip{wireTrip("", direct), wireTrip("", direct)}},
			"malformed answer: a trip twice (LY1)"},
		"a flight at two prices": {&soap.GetTripsResponse{Complete: true, Trips: []soap.Trip{wireTrip("", direct), wireTrip("", dearer)}},
			`malformed answer: flight "LY1" of seller "LY" shown twice`},
		"a flight at two times": {&soap.GetTripsResponse{Complete: true, Trips: []soap.Trip{wireTrip("", first, then), wireTrip("", other, later)}},
			`malformed answer: flight "UA3" of seller "UA" shown twice`},
		"shared legs of one flight": {&soap.GetTripsResponse{Complete: true, SharedLegs: []soap.Leg{direct, dearer},
			Trips: []soap.Trip{{LegIndexes: []int{0}}, {LegIndexes: []int{1}}}}, `malformed answer: flight "LY1" of seller "LY" shown twice`},
		"one flight in two trips": {&soap.GetTripsResponse{Complete: true, Trips: []soap.Trip{wireTrip("", first, then), wireTrip("", other, then)}}, ""},
	} {
		a := Merge(tlvJFK, []DelegateAnswer{{Alliance: "star", Resp: tc.resp}})
		switch {
		case tc.want == "" && (!a.Complete || len(a.Trips) != 2):
			t.Errorf("%s: got %+v, want both trips", name, a)
		case tc.want != "" && (a.Complete || len(a.Trips) != 0 || !strings.HasPrefix(a.Alliances[0].Error, tc.want)):
			t.Errorf("%s: got %+v, want the alliance refused: %s", name, a, tc.want)
		}
	}
}
