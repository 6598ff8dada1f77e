package integration

import (
	"encoding/json"
	"flightalliance/alliance/flight"
	"flightalliance/alliance/trip"
	"flightalliance/search"
	"maps"
	"math/rand/v2"
	"slices"
	"time"
)

// randomQueries picks n distinct pairs of the data's airports, the same ones every run.
func randomQueries(data map[string][]flight.Flight, n int) []query {
	set := map[string]bool{}
	for _, fs := range data {
		for _, f := range fs {
			set[f.Src], set[f.Dst] = true, true
		}
	}
	airports := slices.Sorted(maps.Keys(set))
	rng := rand.New(rand.NewPCG(12, 12))
	var out []query
	for len(out) < n {
		q := query{src: airports[rng.IntN(len(airports))], dst: airports[rng.IntN(len(airports))], date: testDate}
		if q.src != q.dst && !slices.ContainsFunc(out, func(o query) bool { return o.src == q.src && o.dst == q.dst }) {
			out = append(out, q)
		}
	}
	return out
}

// refQuery is one query's input to the reference: the flights the machines' indexes give.
type refQuery struct {
	q              query
	fromSrc, toDst []flight.Flight
	alliance       string
}

func refInput(data map[string][]flight.Flight, q query) refQuery {
	in := refQuery{q: q, alliance: "warm"}
	for _, s := range slices.Sorted(maps.Keys(data)) {
		for _, f := range data[s] {
			if flight.DateOf(f.Departure) != q.date {
				continue
			}
			if f.Src == q.src {
				in.fromSrc = append(in.fromSrc, f)
			}
			if f.Dst == q.dst {
				in.toDst = append(in.toDst, f)
			}
		}
	}
	return in
}

// answer is the reference's work: join, sort, and the search server's JSON answer, appended to
// dst with the search server's encoder (Answer.AppendJSON), or with encoding/json.
func (in refQuery) answer(dst []byte, stdjson bool) ([]byte, int) {
	ts := trip.Build(trip.Query{Src: in.q.src, Dst: in.q.dst, Date: in.q.date, MinConnection: 30 * time.Minute}, in.fromSrc, in.toDst)
	ans := search.Answer{
		Query:     search.QueryEcho{Src: in.q.src, Dst: in.q.dst, Date: in.q.date.String()},
		Total:     len(ts),
		Trips:     make([]search.Trip, len(ts)),
		Complete:  true,
		Alliances: []search.AllianceStatus{{Name: in.alliance, Complete: true, MissingSellers: []string{}}},
	}
	legs := make([]search.Leg, 0, 2*len(ts))
	for i, t := range ts {
		first := len(legs)
		for _, f := range t.Legs {
			legs = append(legs, search.Leg{Flight: f.Number, Seller: f.Seller, Alliance: in.alliance, Src: f.Src, Dst: f.Dst,
				Departure: f.Departure.Format(time.RFC3339), Arrival: f.Arrival.Format(time.RFC3339),
				Price: f.Price.String(), Seats: f.Seats})
		}
		ans.Trips[i] = search.Trip{Price: t.Price.String(), Legs: legs[first:len(legs):len(legs)]}
	}
	if stdjson {
		body, err := json.Marshal(ans)
		if err != nil {
			panic(err)
		}
		return append(body, '\n'), len(ts)
	}
	return append(ans.AppendJSON(dst), '\n'), len(ts)
}
