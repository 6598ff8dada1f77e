package flight

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"
)

// GenerateConfig says what Generate produces: PerDay flights for each seller on each of Days
// days starting at From.
type GenerateConfig struct {
	Sellers []string // seller codes (ValidSeller), no repeats
	From    Date     // first day
	Days    int      // at least 1
	PerDay  int      // flights per seller per day, at least 0
	Seed    int64
}

// Generator limits, so that flight numbers stay within 16 characters and a typo cannot ask for
// an unbounded amount of memory.
const (
	maxGenerateDays     = 366
	maxFlightsPerSeller = 10_000_000

	cruiseKmPerHour = 800.0
	groundMinutes   = 30     // taxi, climb and descent on top of cruise time
	minRouteKm      = 150    // nobody flies Newark to JFK
	maxRouteKm      = 14_000 // the longest routes real aircraft fly non-stop
)

// Generate makes realistic schedules between the real airports of Airports: each seller runs
// PerDay daily services, mostly out of and into two hubs of its own (so one-stop connections
// exist), at times spread over the day; flight time is the great-circle distance at 800 km/h
// plus 30 minutes; prices rise with distance and vary from day to day. The result depends only
// on cfg: a seller's schedule depends on cfg.Seed and its own code, not on the other sellers
// listed, and the same cfg always gives the same flights.
func Generate(cfg GenerateConfig) (map[string][]Flight, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	airports := Airports()
	out := make(map[string][]Flight, len(cfg.Sellers))
	for _, code := range cfg.Sellers {
		rng := rand.New(rand.NewPCG(uint64(cfg.Seed), sellerStream(code)))
		services := planServices(rng, airports, cfg.PerDay)
		out[code] = fly(rng, code, services, cfg)
	}
	return out, nil
}

func (cfg GenerateConfig) validate() error {
	if len(cfg.Sellers) == 0 {
		return fmt.Errorf("generate: %w", fieldErrorf("sellers", "none given"))
	}
	seen := make(map[string]bool, len(cfg.Sellers))
	for _, code := range cfg.Sellers {
		if !ValidSeller(code) {
			return fmt.Errorf("generate: %w", fieldErrorf("sellers", "%q is not a seller code (2-8 of A-Z, 0-9)", code))
		}
		if seen[code] {
			return fmt.Errorf("generate: %w", fieldErrorf("sellers", "%s is listed twice", code))
		}
		seen[code] = true
	}
	switch {
	case DateOf(cfg.From.Start()) != cfg.From:
		return fmt.Errorf("generate: %w", fieldErrorf("from", "%v is not a calendar date", cfg.From))
	case cfg.Days < 1 || cfg.Days > maxGenerateDays:
		return fmt.Errorf("generate: %w", fieldErrorf("days", "%d is not between 1 and %d", cfg.Days, maxGenerateDays))
	case cfg.From.Start().AddDate(0, 0, cfg.Days+1).Year() > 9999:
		return fmt.Errorf("generate: %w", fieldErrorf("days", "%d days from %v pass the year 9999", cfg.Days, cfg.From))
	case cfg.PerDay < 0 || cfg.PerDay > maxFlightsPerSeller/cfg.Days:
		return fmt.Errorf("generate: %w", fieldErrorf("per-day", "%d flights a day for %d days is not between 0 and %d flights",
			cfg.PerDay, cfg.Days, maxFlightsPerSeller))
	}
	return nil
}

// sellerStream gives each seller its own random stream, so adding a seller to the list does not
// change the others' files.
func sellerStream(code string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(code))
	return h.Sum64()
}

// service is a route flown every day at the same time.
type service struct {
	from, to Airport
	km       float64
	minute   int // departure, minutes after midnight UTC
}

// planServices draws a seller's daily services: four in ten leave a hub, four in ten arrive at
// one, one flies between the hubs and one is point to point.
func planServices(rng *rand.Rand, airports []Airport, n int) []service {
	h1 := rng.IntN(len(airports))
	h2 := (h1 + 1 + rng.IntN(len(airports)-1)) % len(airports)
	hubs := [2]Airport{airports[h1], airports[h2]}
	pick := func() Airport { return airports[rng.IntN(len(airports))] }

	services := make([]service, 0, n)
	for len(services) < n {
		hub := hubs[rng.IntN(2)]
		var from, to Airport
		switch k := rng.IntN(10); {
		case k < 4:
			from, to = hub, pick()
		case k < 8:
			from, to = pick(), hub
		case k < 9:
			from, to = hubs[0], hubs[1]
			if rng.IntN(2) == 0 {
				from, to = to, from
			}
		default:
			from, to = pick(), pick()
		}
		km := DistanceKm(from, to)
		if from.Code == to.Code || km < minRouteKm || km > maxRouteKm {
			continue // redraw; the hubs themselves may be too close or too far, so all kinds redraw
		}
		// 05:00 to 23:55 in steps of five minutes.
		services = append(services, service{from: from, to: to, km: km, minute: 300 + 5*rng.IntN(228)})
	}
	slices.SortStableFunc(services, func(a, b service) int {
		return cmp.Or(cmp.Compare(a.minute, b.minute), cmp.Compare(a.from.Code, b.from.Code), cmp.Compare(a.to.Code, b.to.Code))
	})
	return services
}

// fly turns daily services into dated flights, numbered in order of departure.
func fly(rng *rand.Rand, code string, services []service, cfg GenerateConfig) []Flight {
	total := cfg.Days * len(services)
	width := max(3, len(strconv.Itoa(total)))
	flights := make([]Flight, 0, total)
	for day := range cfg.Days {
		midnight := cfg.From.AddDays(day).Start()
		for _, s := range services {
			dep := midnight.Add(time.Duration(s.minute) * time.Minute)
			flights = append(flights, Flight{
				Number:    fmt.Sprintf("%s%0*d", code, width, len(flights)+1),
				Seller:    code,
				Src:       s.from.Code,
				Dst:       s.to.Code,
				Departure: dep,
				Arrival:   dep.Add(flightTime(s.km)),
				Price:     fare(rng, s.km),
				Seats:     seatsLeft(rng, s.km),
			})
		}
	}
	return flights
}

// flightTime is cruise time plus ground time, rounded up to five minutes as timetables are.
func flightTime(km float64) time.Duration {
	minutes := int(math.Ceil(km/cruiseKmPerHour*60)) + groundMinutes
	minutes = (minutes + 4) / 5 * 5
	return time.Duration(minutes) * time.Minute
}

// fare is a base fare plus 8 cents a kilometre, times a daily factor of 0.8 to 1.3, in whole
// units minus one cent (199.99 rather than 200.00).
func fare(rng *rand.Rand, km float64) Cents {
	base := 3900 + 8*km
	units := math.Round(base * (0.8 + 0.5*rng.Float64()) / 100)
	return Cents(units*100) - 1
}

// seatsLeft is what remains for sale on an aircraft sized for the distance; some flights are full.
func seatsLeft(rng *rand.Rand, km float64) int {
	capacity := 180
	switch {
	case km > 5000:
		capacity = 350
	case km > 1500:
		capacity = 240
	}
	return rng.IntN(capacity + 1)
}
