package trip

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"flightalliance/alliance/flight"
)

// A few airports and sellers, five-minute times and connection minimums that are multiples of
// five: connections are frequent and connection times land exactly on the minimum often.
var (
	propAirports = []string{"AAA", "BBB", "CCC", "DDD"}
	propSellers  = []string{"S1", "S2", "S3"}
)

func genSchedule(t *rapid.T) map[string][]flight.Flight {
	out := map[string][]flight.Flight{}
	for _, seller := range propSellers {
		n := rapid.IntRange(0, 25).Draw(t, "n")
		for i := range n {
			src := rapid.SampledFrom(propAirports).Draw(t, "src")
			dst := rapid.SampledFrom(propAirports).Filter(func(a string) bool { return a != src }).Draw(t, "dst")
			dep := day.AddDays(-1).Start().Add(5 * time.Minute * time.Duration(rapid.IntRange(0, 3*24*12-1).Draw(t, "dep")))
			out[seller] = append(out[seller], flight.Flight{
				Number:    fmt.Sprintf("F%d", i), // the same numbers in every seller, on purpose
				Seller:    seller,
				Src:       src,
				Dst:       dst,
				Departure: dep,
				Arrival:   dep.Add(5 * time.Minute * time.Duration(rapid.IntRange(1, 120).Draw(t, "dur"))),
				Price:     flight.Cents(100 * rapid.IntRange(1, 20).Draw(t, "price")), // ties are common
				Seats:     rapid.IntRange(0, 3).Draw(t, "seats"),
			})
		}
	}
	return out
}

func genQuery(t *rapid.T) Query {
	q := Query{
		Src:           rapid.SampledFrom(propAirports).Draw(t, "qsrc"),
		Dst:           rapid.SampledFrom(propAirports).Draw(t, "qdst"),
		Date:          day.AddDays(rapid.IntRange(-1, 1).Draw(t, "qday")),
		MinConnection: rapid.SampledFrom([]time.Duration{0, 30 * time.Minute, 45 * time.Minute, 5 * time.Minute}).Draw(t, "min"),
	}
	if rapid.Bool().Draw(t, "filter") {
		q.Sellers = rapid.SliceOfNDistinct(rapid.SampledFrom(append(propSellers, "S9")), 1, 3, rapid.ID[string]).Draw(t, "sellers")
	}
	return q
}

// reference is docs/api.md's definition of trips, read literally: every flight and every ordered pair
// of flights, checked rule by rule.
func reference(q Query, all []flight.Flight) []Trip {
	if q.Src == q.Dst {
		return nil
	}
	minConn := q.MinConnection
	if minConn <= 0 {
		minConn = 30 * time.Minute
	}
	allowed := func(f flight.Flight) bool { return len(q.Sellers) == 0 || slices.Contains(q.Sellers, f.Seller) }
	onDate := func(f flight.Flight) bool { return flight.DateOf(f.Departure) == q.Date }
	var trips []Trip
	for _, f := range all {
		if f.Src == q.Src && f.Dst == q.Dst && onDate(f) && allowed(f) {
			trips = append(trips, Trip{Legs: []flight.Flight{f}, Price: f.Price})
		}
	}
	for _, f1 := range all {
		for _, f2 := range all {
			if f1.Src == q.Src && f2.Dst == q.Dst && f1.Dst == f2.Src &&
				f1.Dst != q.Src && f1.Dst != q.Dst &&
				onDate(f1) && onDate(f2) &&
				!f2.Departure.Before(f1.Arrival.Add(minConn)) &&
				allowed(f1) && allowed(f2) {
				trips = append(trips, Trip{Legs: []flight.Flight{f1, f2}, Price: f1.Price + f2.Price})
			}
		}
	}
	Sort(trips)
	return trips
}

func equalTrips(a, b []Trip) bool {
	return slices.EqualFunc(a, b, func(x, y Trip) bool { return x.Price == y.Price && slices.Equal(x.Legs, y.Legs) })
}

// sameRefs reports whether trips of one join number their legs alike.
func sameRefs(a, b []Trip) bool {
	return slices.EqualFunc(a, b, func(x, y Trip) bool { return x.Refs == y.Refs })
}

// checkRefs fails t unless the trips' Refs number their legs as Trip documents: every leg's ref
// in 1..inputs, none past the legs, and two legs the same flight exactly when their refs are equal.
func checkRefs(t interface{ Fatalf(string, ...any) }, trips []Trip, inputs int) {
	byRef := map[int32]flight.Flight{}
	refOf := map[flight.Flight]int32{}
	for _, tr := range trips {
		for j, r := range tr.Refs {
			if j >= len(tr.Legs) {
				if r != 0 {
					t.Fatalf("trip %v: ref %d past its legs", describe([]Trip{tr}), r)
				}
				continue
			}
			f := tr.Legs[j]
			if r < 1 || int(r) > inputs {
				t.Fatalf("trip %v: leg %d has ref %d, not in 1..%d", describe([]Trip{tr}), j, r, inputs)
			}
			if g, ok := byRef[r]; ok && g != f {
				t.Fatalf("ref %d names two flights: %+v and %+v", r, g, f)
			}
			if s, ok := refOf[f]; ok && s != r {
				t.Fatalf("flight %+v has two refs: %d and %d", f, s, r)
			}
			byRef[r], refOf[f] = f, r
		}
	}
}

// Build, fed the way the delegate feeds it (each holder's BySrc and ByDst answers, concatenated
// in any order, with the same flight from several holders), agrees with the reference, and its
// answer is strictly sorted.
func TestBuildMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		schedule := genSchedule(t)
		q := genQuery(t)
		var all, fromSrc, toDst []flight.Flight
		for _, code := range propSellers {
			s, err := flight.NewSeller(code, schedule[code])
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, s.Flights()...)
			fromSrc = append(fromSrc, s.BySrc(q.Src, q.Date)...)
			toDst = append(toDst, s.ByDst(q.Dst, q.Date)...)
		}
		// A primary and a backup answering both, in any order.
		fromSrc = rapid.Permutation(append(fromSrc, rapid.SliceOfN(rapid.SampledFrom(append(fromSrc, flight.Flight{})), 0, 5).Draw(t, "dupSrc")...)).Draw(t, "fromSrc")
		toDst = rapid.Permutation(append(toDst, rapid.SliceOfN(rapid.SampledFrom(append(toDst, flight.Flight{})), 0, 5).Draw(t, "dupDst")...)).Draw(t, "toDst")

		want := reference(q, all)
		got := Build(q, fromSrc, toDst)
		if !equalTrips(got, want) {
			t.Fatalf("query %+v\nBuild     %v\nreference %v", q, describe(got), describe(want))
		}
		checkRefs(t, got, len(fromSrc)+len(toDst))
		for i := 1; i < len(got); i++ {
			if !Less(got[i-1], got[i]) {
				t.Fatalf("trips %d and %d are not strictly ordered: %v", i-1, i, describe(got[i-1:i+1]))
			}
		}
		// Handed everything, unfiltered, Build still answers exactly the question.
		if everything := Build(q, all, all); !equalTrips(everything, want) {
			t.Fatalf("query %+v on unfiltered input\nBuild     %v\nreference %v", q, describe(everything), describe(want))
		}
	})
}

// Build agrees with the reference whatever the prices: two prices only (many trips tied on
// price and arrival, ordered by the rest), spread wider than one word holds beside the arrivals
// and the positions (the comparison sort), all negative, and of both signs (the word sort must
// count from the cheapest).
func TestBuildMatchesReferenceWithPricesOfEveryRange(t *testing.T) {
	for name, price := range map[string]func(flight.Cents) flight.Cents{
		"two prices":              func(p flight.Cents) flight.Cents { return 100 * (p / 100 % 2) },
		"wider than 64 bits hold": func(p flight.Cents) flight.Cents { return p << 40 },
		"negative":                func(p flight.Cents) flight.Cents { return -p },
		"both signs":              func(p flight.Cents) flight.Cents { return p - 1050 },
	} {
		t.Run(name, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				schedule := genSchedule(t)
				q := genQuery(t)
				var all []flight.Flight
				for _, code := range propSellers {
					for _, f := range schedule[code] {
						f.Price = price(f.Price)
						all = append(all, f)
					}
				}
				want := reference(q, all)
				if got := Build(q, all, all); !equalTrips(got, want) {
					t.Fatalf("query %+v\nBuild     %v\nreference %v", q, describe(got), describe(want))
				}
			})
		})
	}
}

func describe(trips []Trip) []string {
	var out []string
	for _, t := range trips {
		s := t.Price.String()
		for _, l := range t.Legs {
			s += fmt.Sprintf(" %s/%s %s-%s %s-%s", l.Seller, l.Number, l.Src, l.Dst,
				l.Departure.Format("02T15:04"), l.Arrival.Format("02T15:04"))
		}
		out = append(out, s)
	}
	return out
}

// Compare is a total order on distinct trips: antisymmetric, and zero only for the same legs.
func TestCompareIsTotal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		schedule := genSchedule(t)
		var all []flight.Flight
		for _, code := range propSellers {
			all = append(all, schedule[code]...)
		}
		if len(all) == 0 {
			return
		}
		pick := func(label string) Trip {
			legs := rapid.SliceOfN(rapid.SampledFrom(all), 1, 2).Draw(t, label)
			var price flight.Cents
			for _, l := range legs {
				price += l.Price
			}
			return Trip{Legs: legs, Price: price}
		}
		a, b := pick("a"), pick("b")
		ab, ba := Compare(a, b), Compare(b, a)
		if ab != -ba {
			t.Fatalf("Compare(a, b) = %d, Compare(b, a) = %d", ab, ba)
		}
		sameKeys := slices.EqualFunc(a.Legs, b.Legs, func(x, y flight.Flight) bool { return x.Key() == y.Key() })
		if (ab == 0) != sameKeys {
			t.Fatalf("Compare = %d for %v and %v", ab, describe([]Trip{a}), describe([]Trip{b}))
		}
	})
}
