package trip

import (
	"testing"

	"flightalliance/alliance/flight"
)

// On a busy day (thousands of trips a pair), with the prices as generated and rewritten — two
// prices only, of both signs, spread past 64 bits — Build's trips are the reference's, strictly in
// the order of Compare: the word sort, its runs of ties and its fallback all give Compare's order.
func TestBuildOnABusyDayIsTheReferenceInOrder(t *testing.T) {
	sellers := busyAlliance(t)
	busy, _ := busiestPair(sellers)
	for name, price := range map[string]func(flight.Cents) flight.Cents{
		"as generated":            func(p flight.Cents) flight.Cents { return p },
		"two prices":              func(p flight.Cents) flight.Cents { return 100 * (p / 100 % 2) },
		"both signs":              func(p flight.Cents) flight.Cents { return p - 40000 },
		"wider than 64 bits hold": func(p flight.Cents) flight.Cents { return p << 40 },
	} {
		for _, q := range []Query{busy, {Src: busy.Dst, Dst: busy.Src, Date: day}} {
			fromSrc, toDst := gather(sellers, q)
			var all []flight.Flight // each flight once: a direct flight is in both lists
			seen := map[flight.Key]bool{}
			for _, list := range [][]flight.Flight{fromSrc, toDst} {
				for _, f := range list {
					if !seen[f.Key()] {
						seen[f.Key()] = true
						f.Price = price(f.Price)
						all = append(all, f)
					}
				}
			}
			got := Build(q, all, all)
			if want := reference(q, all); !equalTrips(got, want) {
				t.Fatalf("%s, %s→%s: Build's %d trips differ from the reference's %d (in order or content)", name, q.Src, q.Dst, len(got), len(want))
			}
			for i := 1; i < len(got); i++ {
				if !Less(got[i-1], got[i]) {
					t.Fatalf("%s, %s→%s: trips %d and %d out of order: %v", name, q.Src, q.Dst, i-1, i, describe(got[i-1:i+1]))
				}
			}
			if len(got) < 500 {
				t.Errorf("%s, %s→%s: only %d trips, want a busy pair", name, q.Src, q.Dst, len(got))
			}
		}
	}
}
