package contract

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

func TestParseOrder(t *testing.T) {
	for _, o := range []Order{ByPrice, ByDuration, ByDeparture, ByArrival} {
		got, err := ParseOrder(o.String())
		if err != nil || got != o {
			t.Errorf("ParseOrder(%q) = %v, %v", o, got, err)
		}
	}
	for _, bad := range []string{"", "Price", "cheapest", "price ", "arrival,price"} {
		if _, err := ParseOrder(bad); err == nil {
			t.Errorf("ParseOrder(%q) accepted it", bad)
		}
	}
	if s := Order(9).String(); s != "Order(9)" {
		t.Errorf("Order(9).String() = %q", s)
	}
}

// testTrip is a trip as the orders read it.
type testTrip struct {
	price    Cents
	dep, arr time.Time
	legs     [][2]string // flight, seller
}

func (t testTrip) Price() Cents                      { return t.price }
func (t testTrip) Departure() time.Time              { return t.dep }
func (t testTrip) Arrival() time.Time                { return t.arr }
func (t testTrip) NumLegs() int                      { return len(t.legs) }
func (t testTrip) Leg(i int) (flight, seller string) { return t.legs[i][0], t.legs[i][1] }

func TestComparePrice(t *testing.T) {
	at := func(h int) time.Time { return time.Date(2026, 12, 1, h, 0, 0, 0, time.UTC) }
	// Each trip sorts before the next in the price order.
	sorted := []testTrip{
		{price: 100, dep: at(1), arr: at(5), legs: [][2]string{{"X9", "UA"}}},
		{price: 200, dep: at(1), arr: at(3), legs: [][2]string{{"X9", "UA"}}},
		{price: 200, dep: at(1), arr: at(4), legs: [][2]string{{"A1", "UA"}}},
		{price: 200, dep: at(1), arr: at(4), legs: [][2]string{{"A1", "UA"}, {"B2", "LY"}}},
		{price: 200, dep: at(1), arr: at(4), legs: [][2]string{{"A1", "UA"}, {"B2", "UA"}}},
		{price: 200, dep: at(1), arr: at(4), legs: [][2]string{{"A2", "LY"}}},
	}
	for i := range sorted {
		for j := range sorted {
			if got, want := ComparePrice(sorted[i], sorted[j]), cmpInt(i, j); got != want {
				t.Errorf("ComparePrice(trip %d, trip %d) = %d, want %d", i, j, got, want)
			}
		}
	}
	// The orders' own keys come first.
	early := testTrip{price: 900, dep: at(1), arr: at(2), legs: [][2]string{{"Z9", "ZZ"}}}
	late := testTrip{price: 100, dep: at(3), arr: at(6), legs: [][2]string{{"A1", "AA"}}}
	for o, want := range map[Order]int{ByPrice: 1, ByDuration: -1, ByDeparture: -1, ByArrival: -1} {
		if got := Compare(o, early, late); got != want {
			t.Errorf("Compare(%s, early, late) = %d, want %d", o, got, want)
		}
	}
}

// TestCompareIsTotal holds every order to a total order over distinct trips: antisymmetric,
// transitive (sorting twice is stable under shuffling), and 0 only for trips the order cannot
// tell apart.
func TestCompareIsTotal(t *testing.T) {
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	genTrip := rapid.Custom(func(t *rapid.T) testTrip {
		dep := day.Add(time.Duration(rapid.IntRange(0, 3).Draw(t, "dep")) * time.Hour)
		tr := testTrip{
			price: Cents(rapid.Int64Range(0, 3).Draw(t, "price")),
			dep:   dep,
			arr:   dep.Add(time.Duration(rapid.IntRange(1, 3).Draw(t, "len")) * time.Hour),
		}
		for i := range rapid.IntRange(1, 2).Draw(t, "legs") {
			tr.legs = append(tr.legs, [2]string{
				rapid.SampledFrom([]string{"A1", "B2"}).Draw(t, fmt.Sprint("flight", i)),
				rapid.SampledFrom([]string{"LY", "UA"}).Draw(t, fmt.Sprint("seller", i)),
			})
		}
		return tr
	})
	rapid.Check(t, func(t *rapid.T) {
		o := Order(rapid.IntRange(0, 3).Draw(t, "order"))
		trips := rapid.SliceOfN(genTrip, 2, 8).Draw(t, "trips")
		for _, a := range trips {
			for _, b := range trips {
				ab, ba := Compare(o, a, b), Compare(o, b, a)
				if ab != -ba {
					t.Fatalf("%s: Compare(a, b) = %d but Compare(b, a) = %d", o, ab, ba)
				}
				if ab == 0 && ComparePrice(a, b) != 0 {
					t.Fatalf("%s: equal by Compare, not by the price order", o)
				}
				if ab == 0 && (a.price != b.price || !a.arr.Equal(b.arr) || !slices.Equal(a.legs, b.legs)) {
					t.Fatalf("%s: distinct trips compare equal: %+v, %+v", o, a, b)
				}
			}
		}
		one := slices.Clone(trips)
		slices.SortFunc(one, func(a, b testTrip) int { return Compare(o, a, b) })
		two := slices.Clone(trips)
		slices.Reverse(two)
		slices.SortFunc(two, func(a, b testTrip) int { return Compare(o, a, b) })
		for i := range one {
			if Compare(o, one[i], two[i]) != 0 {
				t.Fatalf("%s: sorting depends on the input's order at %d", o, i)
			}
		}
	})
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
