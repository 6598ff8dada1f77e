package gather

import (
	"context"
	"maps"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/hedge"
)

// The hedging itself is tested in package hedge; these tests cover what is flight-specific: the
// flights a gather keeps, and gatherFlights' wiring of holders and the hedge delay.

// holderAsk answers from a table of machine → sellers it covers, with one departure and one
// arrival per covered seller, marked with the machine. A machine listed in paused answers only
// once its call is cancelled, and then with nothing.
func holderAsk(has map[string][]string, paused ...string) askFunc {
	return func(ctx context.Context, machine string, sellers []string) (src, dst []flight.Flight, covered []string, heard bool) {
		if slices.Contains(paused, machine) {
			<-ctx.Done()
			return nil, nil, nil, false
		}
		for _, s := range sellers {
			if slices.Contains(has[machine], s) {
				covered = append(covered, s)
				src = append(src, flight.Flight{Seller: s, Number: s + "1", Src: machine})
				dst = append(dst, flight.Flight{Seller: s, Number: s + "2", Dst: machine})
			}
		}
		return src, dst, covered, true
	}
}

// allFlights is every flight a gather kept, departures and arrivals, seller by seller in order.
func allFlights(g gathered) (fromSrc, toDst []flight.Flight) {
	for _, seller := range slices.Sorted(maps.Keys(g.bySeller)) {
		fromSrc, toDst = append(fromSrc, g.bySeller[seller].src...), append(toDst, g.bySeller[seller].dst...)
	}
	return fromSrc, toDst
}

// answeredBy says which machine each seller's departures and arrivals came from; a seller with
// flights from two machines, or a departure without its arrival, is reported as "mixed".
func answeredBy(g gathered) map[string]string {
	out := map[string]string{}
	fromSrc, toDst := allFlights(g)
	for _, f := range fromSrc {
		if m, ok := out[f.Seller]; ok && m != f.Src {
			f.Src = "mixed"
		}
		out[f.Seller] = f.Src
	}
	for _, f := range toDst {
		if out[f.Seller] != f.Dst {
			out[f.Seller] = "mixed"
		}
	}
	return out
}

func TestGatherTakesTheFlightsOfTheSellersAnAnswerWon(t *testing.T) {
	g := gathered{bySeller: map[string]holderFlights{}}
	won := hedge.Answer[holderAnswer]{Target: "m1", Keys: []string{"LY", "UA"}, Covered: []string{"LY", "UA"}, Won: []string{"LY"},
		Value: holderAnswer{heard: true, holderFlights: holderFlights{
			src: []flight.Flight{{Seller: "LY", Number: "LY1", Src: "m1"}, {Seller: "UA", Number: "UA1", Src: "m1"}, {Seller: "LH", Number: "LH1", Src: "m1"}},
			dst: []flight.Flight{{Seller: "UA", Number: "UA2", Dst: "m1"}, {Seller: "LY", Number: "LY2", Dst: "m1"}},
		}}}
	g.take(won)
	late := won
	late.Won = nil // UA was covered by another holder first; LY is this answer's
	g.take(late)
	if fromSrc, toDst := allFlights(g); len(fromSrc) != 1 || fromSrc[0].Number != "LY1" || len(toDst) != 1 || toDst[0].Number != "LY2" {
		t.Errorf("kept departures %v and arrivals %v; want LY's alone, once", fromSrc, toDst)
	}
}

func TestGatherFlightsGroupsSellersAndKeepsEachSellersFlights(t *testing.T) {
	ask := holderAsk(map[string][]string{"m1": {"LY"}, "m2": {"UA", "LH"}})
	cands := map[string][]string{"LY": {"m1", "m2"}, "UA": {"m1", "m2"}, "LH": {"m2"}, "AF": {}}
	won := map[string]holderFlights{}
	got := gatherFlights(context.Background(), []string{"LY", "UA", "LH", "AF"}, cands, hedge.NewPolicy(hedge.Settings{Max: time.Hour}), ask,
		func(seller string, f holderFlights) { won[seller] = f })
	if by := answeredBy(got); by["LY"] != "m1" || by["UA"] != "m2" || by["LH"] != "m2" || len(by) != 3 {
		t.Errorf("flights from %v; want LY from m1, UA and LH from m2", by)
	}
	if len(won) != len(got.bySeller) {
		t.Errorf("told of %d sellers' flights as they won, %d answered", len(won), len(got.bySeller))
	}
	for seller, f := range got.bySeller {
		if w, ok := won[seller]; !ok || !slices.Equal(w.src, f.src) || !slices.Equal(w.dst, f.dst) {
			t.Errorf("%s: told %+v as it won, gathered %+v", seller, w, f)
		}
	}
	if fromSrc, toDst := allFlights(got); len(fromSrc) != 3 || len(toDst) != 3 || !slices.Equal(got.outcome.Missing, []string{"AF"}) || got.outcome.Hedged != 0 {
		t.Errorf("%d departures, %d arrivals, missing %v, hedged %d", len(fromSrc), len(toDst), got.outcome.Missing, got.outcome.Hedged)
	}
}

func TestGatherFlightsHedgesAfterTheDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) { // the hedge ticker runs on the bubble's fake clock
		ask := holderAsk(map[string][]string{"m1": {"LY"}, "m2": {"LY"}}, "m1")
		const delay = 150 * time.Millisecond
		start := time.Now()
		got := gatherFlights(context.Background(), []string{"LY"}, map[string][]string{"LY": {"m1", "m2"}}, hedge.NewPolicy(hedge.Settings{Max: delay}), ask, nil)
		if took := time.Since(start); took != delay {
			t.Errorf("answered after %v; the second holder must be asked after the hedge delay %v", took, delay)
		}
		if by, fromSrc := answeredBy(got), got.bySeller["LY"].src; by["LY"] != "m2" || got.outcome.Hedged != 1 || len(fromSrc) != 1 {
			t.Errorf("LY from %q after %d hedges, %d departures; want m2's one after one hedge", by["LY"], got.outcome.Hedged, len(fromSrc))
		}
	})
}

// TestOfSellerCutsOrCopies: a seller's flights that lie together are a part of the list, with no
// room to append over the next seller's; scattered ones are copied; either way exactly theirs,
// in order.
func TestOfSellerCutsOrCopies(t *testing.T) {
	f := func(seller, number string) flight.Flight { return flight.Flight{Seller: seller, Number: number} }
	together := []flight.Flight{f("LY", "1"), f("LY", "2"), f("UA", "3"), f("UA", "4"), f("LH", "5")}
	scattered := []flight.Flight{f("LY", "1"), f("UA", "3"), f("LY", "2")}
	numbers := func(l []flight.Flight) (out []string) {
		for _, x := range l {
			out = append(out, x.Seller+x.Number)
		}
		return out
	}
	for _, c := range []struct {
		list   []flight.Flight
		seller string
		want   []string
		shared bool // a part of list
	}{
		{together, "LY", []string{"LY1", "LY2"}, true},
		{together, "UA", []string{"UA3", "UA4"}, true},
		{together, "LH", []string{"LH5"}, true},
		{together, "AF", nil, false},
		{scattered, "LY", []string{"LY1", "LY2"}, false},
		{scattered, "UA", []string{"UA3"}, true},
		{nil, "LY", nil, false},
	} {
		got := ofSeller(c.list, c.seller)
		if !slices.Equal(numbers(got), c.want) {
			t.Errorf("ofSeller(%v, %s) = %v, want %v", numbers(c.list), c.seller, numbers(got), c.want)
		}
		if len(got) > 0 && cap(got) != len(got) {
			t.Errorf("ofSeller(%v, %s): room for %d more: an append would overwrite the list", numbers(c.list), c.seller, cap(got)-len(got))
		}
		first := slices.IndexFunc(c.list, func(x flight.Flight) bool { return x.Seller == c.seller })
		if shared := len(got) > 0 && &c.list[first] == &got[0]; shared != c.shared {
			t.Errorf("ofSeller(%v, %s): part of the list %v, want %v", numbers(c.list), c.seller, shared, c.shared)
		}
	}
}
