package gather

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/trip"
)

// schedule is an alliance whose machine "m-<seller>" holds each seller's flights and answers
// from them; it records every question asked ("LY TLV→JFK", or "LY TLV→" and "LY →JFK" for one
// side). fail makes a seller's holder cover nothing, failOnce the next question about a seller;
// during, when set, runs inside every Ask, and hold with each of its questions before it answers.
type schedule struct {
	flights map[string][]flight.Flight // seller → flights

	mu       sync.Mutex
	asked    []string // "seller src→dst"
	fail     map[string]bool
	failOnce map[string]bool
	during   func()
	hold     func(question string)
}

func (*schedule) Ready() bool { return true }
func (s *schedule) Sellers() []string {
	var out []string
	for sel := range s.flights {
		out = append(out, sel)
	}
	slices.Sort(out)
	return out
}
func (*schedule) Candidates(seller string) ([]string, int) { return []string{"m-" + seller}, 1 }
func (*schedule) Zone(machine string) string               { return machine }
func (s *schedule) Ask(_ context.Context, _ string, q trip.Query, sides Sides, sellers []string) (src, dst []flight.Flight, covered []string, heard bool) {
	s.mu.Lock()
	during, hold := s.during, s.hold
	var questions []string
	from, to := q.Src, q.Dst
	if sides&FromSrc == 0 {
		from = ""
	}
	if sides&ToDst == 0 {
		to = ""
	}
	for _, sel := range sellers {
		s.asked = append(s.asked, sel+" "+from+"→"+to)
		questions = append(questions, sel+" "+from+"→"+to)
		if s.fail[sel] || s.failOnce[sel] {
			delete(s.failOnce, sel)
			continue
		}
		covered = append(covered, sel)
		for _, f := range s.flights[sel] {
			if flight.DateOf(f.Departure) != q.Date {
				continue
			}
			if f.Src == q.Src && sides&FromSrc != 0 {
				src = append(src, f)
			}
			if f.Dst == q.Dst && sides&ToDst != 0 {
				dst = append(dst, f)
			}
		}
	}
	s.mu.Unlock()
	if during != nil {
		during()
	}
	for _, question := range questions {
		if hold != nil {
			hold(question)
		}
	}
	return src, dst, covered, true
}

// askedYet reports whether every question in want was asked (and not forgotten) so far.
func (s *schedule) askedYet(want ...string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, w := range want {
		if !slices.Contains(s.asked, w) {
			return false
		}
	}
	return true
}

// questions returns and forgets the questions asked so far.
func (s *schedule) questions() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.asked
	s.asked = nil
	slices.Sort(out)
	return out
}

// hubSchedule: LY and UA each fly between TLV, LHR, CDG and JFK, every route perDay times on
// 2026-12-01, spread over the day.
func hubSchedule(perDay int) *schedule {
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	airports := []string{"TLV", "LHR", "CDG", "JFK"}
	s := &schedule{flights: map[string][]flight.Flight{}, fail: map[string]bool{}, failOnce: map[string]bool{}}
	for si, sel := range []string{"LY", "UA"} {
		n := 0
		for _, from := range airports {
			for _, to := range airports {
				if from == to {
					continue
				}
				for i := range perDay {
					n++
					dep := day.Add(time.Duration(i*24/perDay)*time.Hour + time.Duration(si)*time.Minute)
					s.flights[sel] = append(s.flights[sel], flight.Flight{Number: fmt.Sprintf("%s%03d", sel, n), Seller: sel,
						Src: from, Dst: to, Departure: dep, Arrival: dep.Add(3 * time.Hour), Price: flight.Cents(10000 + 100*n), Seats: 9})
				}
			}
		}
	}
	return s
}
