package merge

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"flightalliance/alliance/flight"
	airtrip "flightalliance/alliance/trip"
	"flightalliance/contract"
	"flightalliance/search/internal/searchtest"
	"flightalliance/soap"
)

// orders pairs every search order with the airline's.
var orders = []struct {
	search  contract.Order
	airline airtrip.Order
}{
	{contract.ByPrice, airtrip.ByPrice}, {contract.ByDuration, airtrip.ByDuration}, {contract.ByDeparture, airtrip.ByDeparture}, {contract.ByArrival, airtrip.ByArrival},
}

func TestOrderNamesAreTheAirlines(t *testing.T) {
	for _, o := range orders {
		if o.search.String() != o.airline.String() {
			t.Errorf("search order %q is the airline's %q", o.search, o.airline)
		}
		got, err := contract.ParseOrder(o.airline.String())
		if err != nil || got != o.search {
			t.Errorf("contract.ParseOrder(%q) = %v, %v", o.airline, got, err)
		}
		back, err := airtrip.ParseOrder(o.search.String())
		if err != nil || back != o.airline {
			t.Errorf("airtrip.ParseOrder(%q) = %v, %v", o.search, back, err)
		}
	}
	for _, bad := range []string{"", "Price", "cheapest", "price ", "-price"} {
		if _, err := contract.ParseOrder(bad); err == nil {
			t.Errorf("contract.ParseOrder(%q) accepted", bad)
		}
	}
}

// convertTrip validates one trip with its legs inline, as mergeOne does, for the query it is a
// trip of.
func convertTrip(alliance string, wt *soap.Trip) (trip, error) {
	var q Query
	if n := len(wt.Legs); n > 0 {
		q = Query{Src: wt.Legs[0].Src, Dst: wt.Legs[n-1].Dst, Date: wt.Legs[0].Departure[:min(10, len(wt.Legs[0].Departure))]}
	}
	c, err := newConverter(alliance, q, &soap.GetTripsResponse{Trips: []soap.Trip{*wt}})
	if err != nil {
		return trip{}, err
	}
	return c.trip(wt)
}

func fromWire(tb testing.TB, alliance string, w soap.Trip) trip {
	tb.Helper()
	t, err := convertTrip(alliance, &w)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

func sign(c int) int { return cmp.Compare(c, 0) }

// TestOrderAgreesWithTheAirlines: on the trips of one alliance, every order of the search server
// (on the wire form) is exactly airtrip.Order.Compare: the same sign on every pair, and the same
// sorted list.
func TestOrderAgreesWithTheAirlines(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 34))
	for round := range 300 {
		trips := randomAirlineTrips(rng, flightPool(rng, 4+rng.IntN(9)), 1+rng.IntN(40))
		wire := make([]trip, len(trips))
		for i, tr := range trips {
			wire[i] = fromWire(t, "star", toWire(tr, "star"))
		}
		for _, o := range orders {
			for i := range trips {
				for j := range trips {
					want := sign(o.airline.Compare(trips[i], trips[j]))
					if got := sign(compare(o.search, &wire[i], &wire[j])); got != want {
						t.Fatalf("round %d, %s: %s vs %s: search says %d, airline %d", round, o.search,
							searchtest.TripID(trips[i].Legs), searchtest.TripID(trips[j].Legs), got, want)
					}
				}
			}
			a := slices.Clone(trips)
			slices.SortFunc(a, o.airline.Compare)
			b := slices.Clone(wire)
			rng.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
			slices.SortFunc(b, func(x, y trip) int { return compare(o.search, &x, &y) })
			for i := range a {
				if got, want := wireID(b[i]), searchtest.TripID(a[i].Legs); got != want {
					t.Fatalf("round %d, %s: position %d is %s, the airline sorts %s there", round, o.search, i, got, want)
				}
			}
		}
	}
}

func wireID(t trip) string {
	var parts []string
	for _, l := range t.legs {
		parts = append(parts, l.w.Seller+"/"+l.w.Flight)
	}
	return strings.Join(parts, ">")
}

// legsID identifies the trip of an answer as wireID does.
func legsID(t Trip) string {
	var parts []string
	for _, l := range t.Legs {
		parts = append(parts, l.Seller+"/"+l.Flight)
	}
	return strings.Join(parts, ">")
}

// TestMergedTopsAreTheWindowOfTheWholeList: alliances that each send the top offset+limit of
// their list, filtered and sorted as the airline's airtrip.Select does, merge into exactly the
// window of the whole list (every alliance's trips, filtered, sorted in the order then by
// alliance), and total counts the whole list.
func TestMergedTopsAreTheWindowOfTheWholeList(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(rt, "seed"), 1))
		pool := flightPool(rng, rapid.IntRange(3, 12).Draw(rt, "flights")) // one pool: two alliances may sell the same seller and number
		q := tlvJFK
		q.Sort = contract.Order(rapid.IntRange(0, 3).Draw(rt, "sort"))
		q.Nonstop = rapid.Bool().Draw(rt, "nonstop")
		if rapid.Bool().Draw(rt, "has-max-price") {
			q.MaxPrice, q.HasMaxPrice = contract.Cents(rapid.IntRange(0, 500).Draw(rt, "max-price")), true
		}
		q.Limit = rapid.IntRange(0, 12).Draw(rt, "limit")
		q.Offset = rapid.IntRange(0, 30).Draw(rt, "offset")
		filter := airtrip.Filter{Nonstop: q.Nonstop, MaxPrice: flight.Cents(q.MaxPrice), HasMaxPrice: q.HasMaxPrice}
		airlineOrder := orders[q.Sort].airline

		type tagged struct {
			alliance string
			trip     airtrip.Trip
		}
		var whole []tagged
		var answers []DelegateAnswer
		for _, name := range []string{"sky", "star", "oneworld"}[:rapid.IntRange(1, 3).Draw(rt, "alliances")] {
			trips := randomAirlineTrips(rng, pool, rapid.IntRange(0, 25).Draw(rt, name))
			airtrip.Sort(trips)
			page, total := airtrip.Select(trips, filter, airlineOrder, q.Wanted())
			resp := &soap.GetTripsResponse{Complete: true, Total: total}
			for _, tr := range page {
				resp.Trips = append(resp.Trips, toWire(tr, name))
			}
			answers = append(answers, DelegateAnswer{Alliance: name, Resp: resp})
			for _, tr := range trips {
				if filter.Keep(tr) {
					whole = append(whole, tagged{name, tr})
				}
			}
		}
		slices.SortFunc(whole, func(a, b tagged) int {
			return cmp.Or(airlineOrder.Compare(a.trip, b.trip), cmp.Compare(a.alliance, b.alliance))
		})
		lo := min(q.Offset, len(whole))
		hi := len(whole)
		if q.Limit > 0 {
			hi = min(lo+q.Limit, hi)
		}
		var want []string
		for _, tr := range whole[lo:hi] {
			want = append(want, tr.alliance+":"+searchtest.TripID(tr.trip.Legs))
		}

		ans := Merge(q, answers)
		var got []string
		for _, tr := range ans.Trips {
			got = append(got, tr.Legs[0].Alliance+":"+legsID(tr))
		}
		if !slices.Equal(got, want) {
			rt.Fatalf("query %+v:\n got %v\nwant %v", q, got, want)
		}
		if ans.Total != len(whole) {
			rt.Fatalf("total %d, want %d", ans.Total, len(whole))
		}
	})
}
