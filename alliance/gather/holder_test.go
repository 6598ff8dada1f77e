package gather

import (
	"context"
	"net/http/httptest"
	"reflect"
	"regexp"
	"slices"
	"sync"
	"testing"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/trip"
	"flightalliance/soap"
)

// holderServer is a holder's IntraClusterService over two sellers' flights; old leaves out
// getRelevantFlights, WSDL included (a machine older than it). It counts the calls of each
// operation.
func holderServer(t *testing.T, old bool) (*soap.IntraClient, map[string]int) {
	flights := map[string][]soap.Flight{
		"LY": {{Flight: "LY1", Seller: "LY", Src: "TLV", Dst: "ATH", Departure: "2026-12-01T06:00:00Z", Arrival: "2026-12-01T08:00:00Z", Price: "100.00", Seats: 9},
			{Flight: "LY2", Seller: "LY", Src: "ATH", Dst: "JFK", Departure: "2026-12-01T10:00:00Z", Arrival: "2026-12-01T20:00:00Z", Price: "300.00", Seats: 9}},
		"UA": {{Flight: "UA1", Seller: "UA", Src: "TLV", Dst: "JFK", Departure: "2026-12-01T07:00:00Z", Arrival: "2026-12-01T19:00:00Z", Price: "500.00", Seats: 9}},
	}
	side := func(sellers []string, keep func(soap.Flight) bool) (covered []string, out []soap.Flight) {
		covered = []string{}
		for _, s := range sellers {
			if fs, ok := flights[s]; ok {
				covered = append(covered, s)
				for _, f := range fs {
					if keep(f) {
						out = append(out, f)
					}
				}
			}
		}
		return covered, out
	}
	var mu sync.Mutex
	calls := map[string]int{}
	count := func(op string) { mu.Lock(); calls[op]++; mu.Unlock() }
	ops := []soap.Operation{
		soap.Op(soap.OpRelevantBySrc, func(_ context.Context, req *soap.RelevantBySrcRequest) (*soap.RelevantFlightsResponse, error) {
			count(soap.OpRelevantBySrc)
			covered, fs := side(req.Sellers, func(f soap.Flight) bool { return f.Src == req.Src })
			return &soap.RelevantFlightsResponse{Sellers: covered, Flights: fs}, nil
		}),
		soap.Op(soap.OpRelevantByDst, func(_ context.Context, req *soap.RelevantByDstRequest) (*soap.RelevantFlightsResponse, error) {
			count(soap.OpRelevantByDst)
			covered, fs := side(req.Sellers, func(f soap.Flight) bool { return f.Dst == req.Dst })
			return &soap.RelevantFlightsResponse{Sellers: covered, Flights: fs}, nil
		}),
	}
	svc := soap.IntraClusterService(ops...)
	if old {
		withOp := svc.WSDL
		op := regexp.MustCompile(`(?s)<wsdl:operation name="` + soap.OpRelevantFlights + `">.*?</wsdl:operation>`)
		svc.WSDL = func(address string) []byte { return op.ReplaceAll(withOp(address), nil) }
	} else {
		svc.Ops = append(svc.Ops, soap.Op(soap.OpRelevantFlights, func(_ context.Context, req *soap.RelevantFlightsRequest) (*soap.RelevantBothResponse, error) {
			count(soap.OpRelevantFlights)
			covered, src := side(req.Sellers, func(f soap.Flight) bool { return f.Src == req.Src })
			_, dst := side(req.Sellers, func(f soap.Flight) bool { return f.Dst == req.Dst })
			return &soap.RelevantBothResponse{Sellers: covered, FromSrc: src, ToDst: dst}, nil
		}))
	}
	ts := httptest.NewServer(soap.NewHandler(svc, soap.HandlerOptions{}))
	t.Cleanup(ts.Close)
	return soap.NewIntraClient(ts.URL+soap.IntraClusterServicePath, soap.ClientOptions{}), calls
}

// TestAskHolderInOneCallOrTwo: a holder is asked for both sides in one getRelevantFlights; one
// that predates it, in getRelevantFlightsBySrc and ByDst — and the answer is the same; one side
// alone is asked in that side's one call, and nothing of the other side comes back.
func TestAskHolderInOneCallOrTwo(t *testing.T) {
	q := trip.Query{Src: "TLV", Dst: "JFK", Date: flight.Date{Y: 2026, M: 12, D: 1}}
	type answer struct {
		src, dst, covered []string
	}
	ask := func(old bool, sides ...Sides) (answer, map[string]int) {
		client, calls := holderServer(t, old)
		sides = append(sides, BothSides)
		src, dst, covered, err := AskHolder(context.Background(), client, q, sides[0], []string{"LY", "UA", "AF"}, nil)
		if err != nil {
			t.Fatalf("old=%v: %v", old, err)
		}
		numbers := func(fs []flight.Flight) (out []string) {
			for _, f := range fs {
				out = append(out, f.Number)
			}
			slices.Sort(out)
			return out
		}
		return answer{numbers(src), numbers(dst), covered}, calls
	}
	now, calls := ask(false)
	want := answer{src: []string{"LY1", "UA1"}, dst: []string{"LY2", "UA1"}, covered: []string{"LY", "UA"}}
	if !reflect.DeepEqual(now, want) {
		t.Errorf("asked in one call: %+v, want %+v", now, want)
	}
	if !reflect.DeepEqual(calls, map[string]int{soap.OpRelevantFlights: 1}) {
		t.Errorf("calls %v, want one getRelevantFlights", calls)
	}
	before, calls := ask(true)
	if !reflect.DeepEqual(before, want) {
		t.Errorf("asked in two calls: %+v, want %+v", before, want)
	}
	if !reflect.DeepEqual(calls, map[string]int{soap.OpRelevantBySrc: 1, soap.OpRelevantByDst: 1}) {
		t.Errorf("calls %v, want one getRelevantFlightsBySrc and one ByDst", calls)
	}
	for _, old := range []bool{false, true} {
		for _, c := range []struct {
			sides Sides
			want  answer
			op    string
		}{
			{FromSrc, answer{src: []string{"LY1", "UA1"}, covered: []string{"LY", "UA"}}, soap.OpRelevantBySrc},
			{ToDst, answer{dst: []string{"LY2", "UA1"}, covered: []string{"LY", "UA"}}, soap.OpRelevantByDst},
		} {
			got, calls := ask(old, c.sides)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("old=%v, %v alone: %+v, want %+v", old, c.sides, got, c.want)
			}
			if !reflect.DeepEqual(calls, map[string]int{c.op: 1}) {
				t.Errorf("old=%v, %v alone: calls %v, want one %s", old, c.sides, calls, c.op)
			}
		}
	}
}
