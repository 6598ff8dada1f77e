package soap

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// manyTrips is a getTrips answer of n trips, every other one a two-leg connection.
func manyTrips(n int) *GetTripsResponse {
	resp := &GetTripsResponse{Alliance: "star", Complete: true}
	for i := range n {
		leg := Leg{Flight: fmt.Sprintf("LY%03d", i), Seller: "LY", Alliance: "star", Src: "TLV", Dst: "JFK",
			Departure: "2026-12-01T08:00:00Z", Arrival: "2026-12-01T19:10:00Z", Price: "512.00", Seats: 180}
		trip := Trip{Price: "512.00", Legs: []Leg{leg}}
		if i%2 == 1 {
			first, second := leg, leg
			first.Dst, second.Src, second.Flight = "LHR", "LHR", fmt.Sprintf("UA%03d", i)
			trip = Trip{Price: "1024.00", Legs: []Leg{first, second}}
		}
		resp.Trips = append(resp.Trips, trip)
	}
	return resp
}

func benchmarkGetTrips(b *testing.B, n int) {
	trips := manyTrips(n)
	s := startServer(b, serverOps{getTrips: func(context.Context, *GetTripsRequest) (*GetTripsResponse, error) {
		return trips, nil
	}})
	var env bytes.Buffer
	if err := writeEnvelope(&env, "getTripsResponse", trips); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(env.Len()))
	c := s.seller()
	req := GetTripsRequest{Src: "TLV", Dst: "JFK", Date: "2026-12-01", Sellers: []string{"LY", "UA"}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		resp, err := c.GetTrips(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		if len(resp.Trips) != n {
			b.Fatalf("%d trips, want %d", len(resp.Trips), n)
		}
	}
}

// BenchmarkGetTrips is a whole getTrips call through SellerClient (gosoap) and the handler over
// loopback HTTP, answered with 100 trips.
func BenchmarkGetTrips(b *testing.B) { benchmarkGetTrips(b, 100) }

// BenchmarkGetTripsEmpty is the fixed cost of a call: an answer without trips.
func BenchmarkGetTripsEmpty(b *testing.B) { benchmarkGetTrips(b, 0) }

// BenchmarkHandlerGetTrips is the server's share of BenchmarkGetTrips: decode the request,
// encode 100 trips, without the network or the client.
func BenchmarkHandlerGetTrips(b *testing.B) { benchmarkHandlerGetTrips(b, 100) }

// BenchmarkGetTrips2500 is a whole getTrips call through SellerClient and the handler over
// loopback HTTP, answered with benchTrips trips (about 950 KB of XML).
func BenchmarkGetTrips2500(b *testing.B) { benchmarkGetTrips(b, benchTrips) }

// BenchmarkHandlerGetTrips2500 is the server's share of BenchmarkGetTrips2500.
func BenchmarkHandlerGetTrips2500(b *testing.B) { benchmarkHandlerGetTrips(b, benchTrips) }

func benchmarkHandlerGetTrips(b *testing.B, n int) {
	trips := manyTrips(n)
	h := NewHandler(SellerService(Op(OpGetTrips, func(context.Context, *GetTripsRequest) (*GetTripsResponse, error) {
		return trips, nil
	})), HandlerOptions{Address: "http://127.0.0.1:8101"})
	body := envelope(`<getTrips xmlns="urn:flightalliance:v1"><Src>TLV</Src><Dst>JFK</Dst><Date>2026-12-01</Date><Sellers>LY</Sellers></getTrips>`)
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, SellerServicePath, strings.NewReader(body))
		req.Header.Set("Content-Type", "text/xml; charset=utf-8")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("HTTP %d: %s", rec.Code, rec.Body)
		}
	}
}

// BenchmarkCallOverhead is the fixed cost of a call (an answer without trips) made through
// gosoap (caller.call) and without it (caller.callHot), server included, over loopback HTTP;
// "hot" reports its speedup over "gosoap".
func BenchmarkCallOverhead(b *testing.B) { benchmarkCallPaths(b, 0) }

// BenchmarkGetTripsCall is a whole getTrips call answered with benchTrips trips through
// gosoap and without it, as BenchmarkCallOverhead.
func BenchmarkGetTripsCall(b *testing.B) { benchmarkCallPaths(b, benchTrips) }

func benchmarkCallPaths(b *testing.B, n int) {
	trips := manyTrips(n)
	s := startServer(b, serverOps{getTrips: func(context.Context, *GetTripsRequest) (*GetTripsResponse, error) {
		return trips, nil
	}})
	var env bytes.Buffer
	if err := writeEnvelope(&env, "getTripsResponse", trips); err != nil {
		b.Fatal(err)
	}
	c := s.seller().c
	req := &GetTripsRequest{Src: "TLV", Dst: "JFK", Date: "2026-12-01", Sellers: []string{"LY", "UA"}}
	ctx := context.Background()
	call := func(via func(context.Context, string, any, any) error) func() {
		return func() {
			var resp GetTripsResponse
			if err := via(ctx, OpGetTrips, req, &resp); err != nil {
				b.Fatal(err)
			}
			if len(resp.Trips) != n {
				b.Fatalf("%d trips, want %d", len(resp.Trips), n)
			}
		}
	}
	b.Run("gosoap", func(b *testing.B) { loop(b, env.Len(), call(c.call)) })
	b.Run("hot", func(b *testing.B) {
		ns, allocs := measure(call(c.call))
		loopWithRatios(b, env.Len(), call(c.callHot), ns, allocs, "")
	})
}
