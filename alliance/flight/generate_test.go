package flight

import (
	"errors"
	"maps"
	"math"
	"slices"
	"testing"
	"time"
)

func TestGenerateIsDeterministic(t *testing.T) {
	cfg := GenerateConfig{Sellers: []string{"LY", "UA", "LH"}, From: testDay, Days: 3, PerDay: 40, Seed: 7}
	a, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Generate(cfg)
	if !maps.EqualFunc(a, b, slices.Equal) {
		t.Fatal("the same config gave different flights")
	}
	// A seller's schedule does not depend on who else is generated, nor in what order.
	alone, _ := Generate(GenerateConfig{Sellers: []string{"UA"}, From: testDay, Days: 3, PerDay: 40, Seed: 7})
	if !slices.Equal(alone["UA"], a["UA"]) {
		t.Fatal("UA's schedule changed when generated alone")
	}
	other, _ := Generate(GenerateConfig{Sellers: []string{"LY", "UA", "LH"}, From: testDay, Days: 3, PerDay: 40, Seed: 8})
	if slices.Equal(other["LY"], a["LY"]) {
		t.Fatal("another seed gave the same schedule")
	}
}

// What the generator writes is valid data that looks like an airline's.
func TestGenerateIsRealistic(t *testing.T) {
	cfg := GenerateConfig{Sellers: []string{"LY", "UA"}, From: testDay, Days: 2, PerDay: 300, Seed: 1}
	data, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	airports := map[string]Airport{}
	for _, a := range Airports() {
		airports[a.Code] = a
	}
	for code, flights := range data {
		if len(flights) != cfg.Days*cfg.PerDay {
			t.Fatalf("%s: %d flights; want %d", code, len(flights), cfg.Days*cfg.PerDay)
		}
		mustSeller(t, code, flights) // valid, unique numbers, one seller
		perDay := map[Date]int{}
		departures := map[string]int{}
		var hours [24]int
		for _, f := range flights {
			perDay[DateOf(f.Departure)]++
			departures[f.Src]++
			hours[f.Departure.Hour()]++
			from, okFrom := airports[f.Src]
			to, okTo := airports[f.Dst]
			if !okFrom || !okTo {
				t.Fatalf("%s: %s flies between unknown airports %s-%s", code, f.Number, f.Src, f.Dst)
			}
			km := DistanceKm(from, to)
			want := time.Duration((km/800*60 + 30) * float64(time.Minute))
			if got := f.Arrival.Sub(f.Departure); got < want || got > want+6*time.Minute {
				t.Fatalf("%s %s-%s (%.0f km) takes %v; want about %v", f.Number, f.Src, f.Dst, km, got, want)
			}
			if km > maxRouteKm || km < minRouteKm {
				t.Fatalf("%s %s-%s is %.0f km", f.Number, f.Src, f.Dst, km)
			}
		}
		if len(perDay) != cfg.Days || perDay[testDay] != cfg.PerDay {
			t.Errorf("%s: flights per day %v", code, perDay)
		}
		// Two hubs carry most of the traffic; the rest of the table is served too.
		counts := slices.Sorted(maps.Values(departures))
		slices.Reverse(counts)
		if hubShare := float64(counts[0]+counts[1]) / float64(len(flights)); hubShare < 0.35 {
			t.Errorf("%s: the two busiest airports have %.0f%% of departures; want hubs", code, hubShare*100)
		}
		if len(departures) < 30 {
			t.Errorf("%s departs from only %d airports", code, len(departures))
		}
		if hours[3] != 0 || hours[8] == 0 || hours[20] == 0 {
			t.Errorf("%s: departures by hour %v; want 05:00-23:55", code, hours)
		}
	}
	// Prices rise with distance: the longest route costs more than the shortest.
	fl := data["LY"]
	byKm := func(f Flight) float64 { return DistanceKm(airports[f.Src], airports[f.Dst]) }
	short := slices.MinFunc(fl, func(a, b Flight) int { return cmpFloat(byKm(a), byKm(b)) })
	long := slices.MaxFunc(fl, func(a, b Flight) int { return cmpFloat(byKm(a), byKm(b)) })
	if short.Price >= long.Price {
		t.Errorf("%s-%s costs %s, %s-%s costs %s", short.Src, short.Dst, short.Price, long.Src, long.Dst, long.Price)
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestDistanceKm(t *testing.T) {
	airports := map[string]Airport{}
	for _, a := range Airports() {
		airports[a.Code] = a
	}
	if len(airports) < 40 || len(airports) != len(Airports()) {
		t.Fatalf("%d airports (codes unique: %v)", len(Airports()), len(airports) == len(Airports()))
	}
	// Published great-circle distances, within 1 %.
	for _, c := range []struct {
		a, b string
		km   float64
	}{{"TLV", "JFK", 9130}, {"LHR", "JFK", 5540}, {"SYD", "LAX", 12050}, {"CDG", "FRA", 450}} {
		got := DistanceKm(airports[c.a], airports[c.b])
		if math.Abs(got-c.km)/c.km > 0.01 {
			t.Errorf("%s-%s = %.0f km; want about %.0f", c.a, c.b, got, c.km)
		}
	}
}

func TestGenerateRefusesBadConfig(t *testing.T) {
	ok := GenerateConfig{Sellers: []string{"LY"}, From: testDay, Days: 1, PerDay: 1}
	bad := []GenerateConfig{
		{From: testDay, Days: 1, PerDay: 1},
		{Sellers: []string{"ly"}, From: testDay, Days: 1, PerDay: 1},
		{Sellers: []string{"LY", "LY"}, From: testDay, Days: 1, PerDay: 1},
		{Sellers: []string{"LY"}, Days: 1, PerDay: 1},
		{Sellers: []string{"LY"}, From: testDay, Days: 0, PerDay: 1},
		{Sellers: []string{"LY"}, From: testDay, Days: 1, PerDay: -1},
		{Sellers: []string{"LY"}, From: testDay, Days: 100, PerDay: maxFlightsPerSeller},
		{Sellers: []string{"LY"}, From: testDay, Days: 4, PerDay: 1 << 62}, // PerDay × Days overflows
		{Sellers: []string{"LY"}, From: Date{9999, time.December, 31}, Days: 2, PerDay: 1},
	}
	if _, err := Generate(ok); err != nil {
		t.Fatalf("Generate(%+v): %v", ok, err)
	}
	for _, cfg := range bad {
		if _, err := Generate(cfg); !errors.Is(err, ErrInvalid) {
			t.Errorf("Generate(%+v) = %v; want ErrInvalid", cfg, err)
		}
	}
}
