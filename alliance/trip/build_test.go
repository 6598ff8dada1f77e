package trip

import (
	"slices"
	"strings"
	"testing"
	"time"

	"flightalliance/alliance/flight"
)

var day = flight.Date{Y: 2026, M: time.December, D: 1}

// fl is a flight in the notation of the scenarios: "LY1 TLV-IST 08:00/10:00 100" departs on day
// at 08:00 UTC; a time may carry a day offset, "-1d23:00" or "+1d01:00".
func fl(spec string) flight.Flight {
	var f flight.Flight
	parts := strings.Fields(spec)
	f.Number, f.Seller = parts[0], strings.TrimRight(parts[0], "0123456789")
	f.Src, f.Dst, _ = strings.Cut(parts[1], "-")
	dep, arr, _ := strings.Cut(parts[2], "/")
	f.Departure, f.Arrival = clock(dep), clock(arr)
	if f.Arrival.Before(f.Departure) {
		f.Arrival = f.Arrival.Add(24 * time.Hour)
	}
	price, err := flight.ParseCents(parts[3])
	if err != nil {
		panic(err)
	}
	f.Price, f.Seats = price, 100
	return f
}

func clock(s string) time.Time {
	base := day.Start()
	if rest, ok := strings.CutPrefix(s, "-1d"); ok {
		base, s = base.AddDate(0, 0, -1), rest
	} else if rest, ok := strings.CutPrefix(s, "+1d"); ok {
		base, s = base.AddDate(0, 0, 1), rest
	}
	hm, err := time.Parse("15:04", s)
	if err != nil {
		panic(err)
	}
	return base.Add(time.Duration(hm.Hour())*time.Hour + time.Duration(hm.Minute())*time.Minute)
}

// render writes a trip as "LY1+TK2 250.00".
func render(trips []Trip) []string {
	var out []string
	for _, t := range trips {
		var nums []string
		for _, l := range t.Legs {
			nums = append(nums, l.Number)
		}
		out = append(out, strings.Join(nums, "+")+" "+t.Price.String())
	}
	return out
}

func flights(specs ...string) []flight.Flight {
	out := make([]flight.Flight, len(specs))
	for i, s := range specs {
		out[i] = fl(s)
	}
	return out
}

// Each scenario is one rule of docs/api.md ("Trips"), with its boundary.
func TestBuildScenarios(t *testing.T) {
	cases := []struct {
		name           string
		q              Query
		fromSrc, toDst []flight.Flight
		want           []string
	}{{
		name:    "a direct flight is a trip; flights elsewhere are not",
		q:       Query{Src: "TLV", Dst: "JFK", Date: day},
		fromSrc: flights("LY1 TLV-JFK 08:00/19:00 512.00", "LY2 TLV-LHR 09:00/14:00 300.00"),
		toDst:   flights("LY1 TLV-JFK 08:00/19:00 512.00"),
		want:    []string{"LY1 512.00"},
	}, {
		name:    "a connection of exactly the minimum connection time is allowed",
		q:       Query{Src: "TLV", Dst: "JFK", Date: day},
		fromSrc: flights("LY1 TLV-IST 08:00/10:00 100.00"),
		toDst:   flights("TK1 IST-JFK 10:30/20:00 200.00"),
		want:    []string{"LY1+TK1 300.00"},
	}, {
		name:    "one minute less than the minimum connection is refused",
		q:       Query{Src: "TLV", Dst: "JFK", Date: day},
		fromSrc: flights("LY1 TLV-IST 08:00/10:00 100.00"),
		toDst:   flights("TK1 IST-JFK 10:29/20:00 200.00"),
		want:    nil,
	}, {
		name:    "a second flight leaving before the first lands is refused",
		q:       Query{Src: "TLV", Dst: "JFK", Date: day},
		fromSrc: flights("LY1 TLV-IST 08:00/10:00 100.00"),
		toDst:   flights("TK1 IST-JFK 09:00/20:00 200.00"),
		want:    nil,
	}, {
		name:    "the alliance's minimum connection replaces the default",
		q:       Query{Src: "TLV", Dst: "JFK", Date: day, MinConnection: time.Hour},
		fromSrc: flights("LY1 TLV-IST 08:00/10:00 100.00"),
		toDst:   flights("TK1 IST-JFK 10:59/20:00 200.00", "TK2 IST-JFK 11:00/21:00 250.00"),
		want:    []string{"LY1+TK2 350.00"},
	}, {
		name:    "both flights depart on the date; the second may land the next day",
		q:       Query{Src: "TLV", Dst: "JFK", Date: day},
		fromSrc: flights("LY1 TLV-IST 20:00/22:00 100.00", "LY2 TLV-IST 22:30/+1d00:30 90.00"),
		toDst:   flights("TK1 IST-JFK 23:59/+1d10:00 200.00", "TK2 IST-JFK +1d01:00/+1d11:00 150.00"),
		want:    []string{"LY1+TK1 300.00"},
	}, {
		name:    "a first flight of the day before does not count, even landing on the date",
		q:       Query{Src: "TLV", Dst: "JFK", Date: day},
		fromSrc: flights("LY1 TLV-IST -1d23:00/01:00 100.00"),
		toDst:   flights("TK1 IST-JFK 08:00/18:00 200.00"),
		want:    nil,
	}, {
		name:    "the two flights may belong to different sellers; the filter applies to every leg",
		q:       Query{Src: "TLV", Dst: "JFK", Date: day, Sellers: []string{"LY"}},
		fromSrc: flights("LY1 TLV-IST 08:00/10:00 100.00", "TK1 TLV-IST 07:00/09:00 80.00"),
		toDst:   flights("TK2 IST-JFK 12:00/22:00 200.00", "LY2 IST-JFK 13:00/23:00 210.00"),
		want:    []string{"LY1+LY2 310.00"},
	}, {
		name:    "without a filter every combination of sellers is offered",
		q:       Query{Src: "TLV", Dst: "JFK", Date: day},
		fromSrc: flights("LY1 TLV-IST 08:00/10:00 100.00", "TK1 TLV-IST 07:00/09:00 80.00"),
		toDst:   flights("TK2 IST-JFK 12:00/22:00 200.00", "LY2 IST-JFK 13:00/23:00 210.00"),
		want:    []string{"TK1+TK2 280.00", "TK1+LY2 290.00", "LY1+TK2 300.00", "LY1+LY2 310.00"},
	}, {
		name:    "a filter naming no seller of the data leaves nothing",
		q:       Query{Src: "TLV", Dst: "JFK", Date: day, Sellers: []string{"UA"}},
		fromSrc: flights("LY1 TLV-JFK 08:00/19:00 512.00"),
		toDst:   flights("LY1 TLV-JFK 08:00/19:00 512.00"),
		want:    nil,
	}, {
		name: "the same flight from several holders counts once",
		q:    Query{Src: "TLV", Dst: "JFK", Date: day},
		fromSrc: flights("LY1 TLV-JFK 08:00/19:00 512.00", "LY2 TLV-IST 08:00/10:00 100.00",
			"LY2 TLV-IST 08:00/10:00 100.00", "LY1 TLV-JFK 08:00/19:00 512.00"),
		toDst: flights("TK1 IST-JFK 12:00/22:00 200.00", "LY1 TLV-JFK 08:00/19:00 512.00",
			"TK1 IST-JFK 12:00/22:00 200.00"),
		want: []string{"LY2+TK1 300.00", "LY1 512.00"},
	}, {
		name:    "a direct flight only the destination's holders returned still counts",
		q:       Query{Src: "TLV", Dst: "JFK", Date: day},
		fromSrc: nil,
		toDst:   flights("LY1 TLV-JFK 08:00/19:00 512.00"),
		want:    []string{"LY1 512.00"},
	}, {
		name:    "flights of the same number but different sellers are different flights",
		q:       Query{Src: "TLV", Dst: "JFK", Date: day},
		fromSrc: []flight.Flight{fl("LY1 TLV-JFK 08:00/19:00 512.00"), withSeller(fl("LY1 TLV-JFK 09:00/20:00 512.00"), "UA")},
		want:    []string{"LY1 512.00", "LY1 512.00"},
	}, {
		name: "flights that do not belong in their list are ignored",
		q:    Query{Src: "TLV", Dst: "JFK", Date: day},
		fromSrc: flights("LY1 LHR-IST 08:00/10:00 100.00", "LY2 TLV-TLV 08:00/09:00 10.00",
			"LY3 TLV-IST +1d08:00/+1d10:00 100.00"),
		toDst: flights("TK1 IST-CDG 12:00/15:00 200.00", "TK2 TLV-JFK -1d08:00/-1d18:00 1.00",
			"TK3 IST-JFK +1d12:00/+1d22:00 200.00", "TK4 TLV-JFK 08:00/18:00 1.00"),
		want: []string{"TK4 1.00"},
	}, {
		name:    "a query from an airport to itself has no trips",
		q:       Query{Src: "TLV", Dst: "TLV", Date: day},
		fromSrc: flights("LY1 TLV-IST 08:00/10:00 100.00"),
		toDst:   flights("TK1 IST-TLV 12:00/14:00 100.00"),
		want:    nil,
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := render(Build(c.q, c.fromSrc, c.toDst)); !slices.Equal(got, c.want) {
				t.Errorf("Build =\n  %v\nwant\n  %v", got, c.want)
			}
		})
	}
}

func withSeller(f flight.Flight, seller string) flight.Flight {
	f.Seller = seller
	return f
}
