package soap

import (
	"context"
	"encoding/xml"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestShareLegsRoundTrip: an answer with legs inline, given shared legs and sent (the fast
// encoder, then the fast decoder), comes back inline equal to itself; every distinct leg is
// shared once, and the original answer is not touched.
func TestShareLegsRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := genTrips(t)
		r.SharedLegs = nil
		pool := listOf(t, "pool", rapid.Custom(func(t *rapid.T) Leg { // few legs, many trips: legs repeat
			return Leg{Flight: rapid.SampledFrom([]string{"LY1", "LY2", "UA7"}).Draw(t, "flight"), Seller: "LY",
				Price: rapid.SampledFrom([]string{"1.00", "2.00"}).Draw(t, "price"), Seats: rapid.IntRange(0, 2).Draw(t, "seats")}
		}), 6)
		for i := range r.Trips {
			r.Trips[i].LegIndexes = nil
			if len(pool) > 0 && rapid.Bool().Draw(t, "from pool") {
				r.Trips[i].Legs = nil
				for range rapid.IntRange(1, 2).Draw(t, "legs") {
					r.Trips[i].Legs = append(r.Trips[i].Legs, pool[rapid.IntRange(0, len(pool)-1).Draw(t, "leg")])
				}
			}
		}
		r = sanitized(r, xml.Name{Space: Namespace, Local: "getTripsResponse"}).(*GetTripsResponse)
		before := deepCopyTrips(r)

		shared := r.ShareLegs()
		if !reflect.DeepEqual(r, before) {
			t.Fatalf("ShareLegs changed its answer")
		}
		distinct := map[Leg]bool{}
		for _, tr := range r.Trips {
			for _, l := range tr.Legs {
				distinct[l] = true
			}
		}
		if len(shared.SharedLegs) != len(distinct) {
			t.Fatalf("%d shared legs, %d distinct", len(shared.SharedLegs), len(distinct))
		}
		body, ok := appendResponseEnvelope(nil, "getTripsResponse", shared)
		if !ok {
			t.Fatal("the fast encoder does not know getTripsResponse")
		}
		var back GetTripsResponse
		if !fastDecode(body, "getTripsResponse", &back) {
			t.Fatalf("the fast decoder defers:\n%s", body)
		}
		if err := back.InlineLegs(); err != nil {
			t.Fatalf("InlineLegs: %v", err)
		}
		back.XMLName = r.XMLName
		if !reflect.DeepEqual(&back, r) {
			t.Fatalf("shared and inlined again:\n%+v\nwant\n%+v", back, *r)
		}
	})
}

// TestInlineLegsRefusesBadIndexes: an index outside SharedLegs, or a trip with both forms, is an
// error naming the trip, and the answer is left as it was.
func TestInlineLegsRefusesBadIndexes(t *testing.T) {
	leg := Leg{Flight: "LY1", Seller: "LY"}
	for name, tc := range map[string]struct {
		trips []Trip
		want  string
	}{
		"past the end":   {[]Trip{{LegIndexes: []int{0}}, {LegIndexes: []int{0, 1}}}, "Trips[1].LegIndexes: 1 is not a position"},
		"negative":       {[]Trip{{LegIndexes: []int{-1}}}, "Trips[0].LegIndexes: -1 is not a position"},
		"both forms":     {[]Trip{{LegIndexes: []int{0}}, {Legs: []Leg{leg}, LegIndexes: []int{0}}}, "Trips[1]: both Legs and LegIndexes"},
		"no shared legs": {[]Trip{{LegIndexes: []int{0}}}, "Trips[0].LegIndexes: 0 is not a position"},
	} {
		r := &GetTripsResponse{Trips: tc.trips}
		if name != "no shared legs" {
			r.SharedLegs = []Leg{leg}
		}
		before := deepCopyTrips(r)
		err := r.InlineLegs()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, tc.want)
		}
		if !reflect.DeepEqual(r, before) {
			t.Errorf("%s: the refused answer was changed", name)
		}
	}
}

// TestShareLegsShrinksWholeLists: a list of connections over few flights — what whole answers
// are — takes a fraction of its bytes with shared legs.
func TestShareLegsShrinksWholeLists(t *testing.T) {
	inline := connections(3000, 150)
	full, _ := appendResponseEnvelope(nil, "getTripsResponse", inline)
	shared, _ := appendResponseEnvelope(nil, "getTripsResponse", inline.ShareLegs())
	if 4*len(shared) > len(full) {
		t.Errorf("shared legs: %d bytes, inline %d: want at most a quarter", len(shared), len(full))
	}
}

func deepCopyTrips(r *GetTripsResponse) *GetTripsResponse {
	c := *r
	c.SharedLegs = append([]Leg(nil), r.SharedLegs...)
	if r.SharedLegs == nil {
		c.SharedLegs = nil
	}
	c.Trips = nil
	for _, t := range r.Trips {
		t.Legs = append([]Leg(nil), t.Legs...)
		t.LegIndexes = append([]int(nil), t.LegIndexes...)
		c.Trips = append(c.Trips, t)
	}
	if r.Trips == nil {
		c.Trips = nil
	}
	return &c
}

// TestSellerClientGetsSharedLegs: an answer with shared legs reaches SellerClient.GetTrips as
// sent, and inlined it is the answer the machine meant.
func TestSellerClientGetsSharedLegs(t *testing.T) {
	want := connections(40, 7)
	s := startServer(t, serverOps{getTrips: func(_ context.Context, req *GetTripsRequest) (*GetTripsResponse, error) {
		if !req.ShareLegs {
			t.Errorf("the request did not ask ShareLegs")
		}
		return want.ShareLegs(), nil
	}})
	resp, err := s.seller().GetTrips(context.Background(), GetTripsRequest{Src: "TLV", Dst: "JFK", Date: "2026-12-01", ShareLegs: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.SharedLegs) != 7 || len(resp.Trips) != 40 || len(resp.Trips[0].LegIndexes) != 2 {
		t.Fatalf("%d shared legs, %d trips: want 7 legs and 40 trips naming them", len(resp.SharedLegs), len(resp.Trips))
	}
	if err := resp.InlineLegs(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(clearNames(resp), want) {
		t.Errorf("client decoded\n%+v\nwant\n%+v", resp, want)
	}
}

// connections is an answer of n two-leg trips over flights distinct legs.
func connections(n, flights int) *GetTripsResponse {
	leg := func(i int) Leg {
		return Leg{Flight: "LY" + strconv.Itoa(100+i), Seller: "LY", Alliance: "star", Src: "TLV", Dst: "JFK",
			Departure: "2026-12-01T08:00:00Z", Arrival: "2026-12-01T19:10:00Z", Price: "512.00", Seats: 180 + i}
	}
	r := &GetTripsResponse{Alliance: "star", Complete: true, Total: n, ETag: "1-2-3-4"}
	for i := range n {
		r.Trips = append(r.Trips, Trip{Price: strconv.Itoa(1000+i) + ".00", Legs: []Leg{leg(i % flights), leg((i * 7) % flights)}})
	}
	return r
}
