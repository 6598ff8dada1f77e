package soap

import (
	"context"
	"encoding/xml"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// server is an airline-like server on a loopback port serving both services with test
// operations. Each operation records the request it decoded, so tests can compare what a client
// sent with what the server understood.
type server struct {
	URL string // advertised base URL, http://127.0.0.1:port
	ts  *httptest.Server

	mu   sync.Mutex
	seen map[string][]any // requests per operation, in arrival order
}

// serverOps customises the operations; nil fields get the defaults below.
type serverOps struct {
	getTrips func(ctx context.Context, req *GetTripsRequest) (*GetTripsResponse, error)
	bySrc    func(ctx context.Context, req *RelevantBySrcRequest) (*RelevantFlightsResponse, error)
	byDst    func(ctx context.Context, req *RelevantByDstRequest) (*RelevantFlightsResponse, error)
	send     func(ctx context.Context, req *SendSellerRequest) (*SellerPage, error)
	reserve  func(ctx context.Context, req *ReserveRequest) (*ReserveResponse, error)
	token    string   // required by the IntraClusterService when set
	accepted []string // further tokens it accepts
	tokens   *Tokens  // instead of token and accepted: tokens the test changes
	maxBody  int64
	wrap     func(http.Handler) http.Handler
}

func startServer(t testing.TB, o serverOps) *server {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	s := &server{URL: "http://" + ts.Listener.Addr().String(), ts: ts, seen: map[string][]any{}}
	if o.getTrips == nil {
		o.getTrips = func(context.Context, *GetTripsRequest) (*GetTripsResponse, error) { return sampleTrips(), nil }
	}
	if o.bySrc == nil {
		o.bySrc = func(context.Context, *RelevantBySrcRequest) (*RelevantFlightsResponse, error) {
			return sampleRelevant(), nil
		}
	}
	if o.byDst == nil {
		o.byDst = func(context.Context, *RelevantByDstRequest) (*RelevantFlightsResponse, error) {
			return sampleRelevant(), nil
		}
	}
	if o.send == nil {
		o.send = pagedSeller(sampleFlights(5), 2)
	}
	if o.reserve == nil {
		o.reserve = func(context.Context, *ReserveRequest) (*ReserveResponse, error) {
			return &ReserveResponse{Booking: sampleBooking(), Created: true}, nil
		}
	}
	booking := func(_ context.Context, req *BookingRequest) (*BookingResponse, error) {
		if req.BookingID != sampleBooking().ID {
			return nil, KindFault(KindNotFound, "BookingID: no booking %q", req.BookingID)
		}
		return &BookingResponse{Booking: sampleBooking()}, nil
	}
	seats := func(_ context.Context, req *GetSeatsRequest) (*GetSeatsResponse, error) {
		return &GetSeatsResponse{Seller: req.Seller, Flight: req.Flight, Capacity: 180, Booked: 2, Left: 178}, nil
	}
	opts := HandlerOptions{Address: s.URL, MaxBody: o.maxBody}
	if _, bench := t.(*testing.B); !bench {
		opts.Logger = testLogger(t)
	}
	mux := http.NewServeMux()
	mux.Handle(SellerServicePath, NewHandler(SellerService(
		Op(OpGetTrips, record(s, OpGetTrips, o.getTrips)),
		Op(OpReserve, record(s, OpReserve, o.reserve)),
		Op(OpCancel, record(s, OpCancel, booking)),
		Op(OpConfirm, record(s, OpConfirm, booking)),
		Op(OpGetBooking, record(s, OpGetBooking, booking)),
		Op(OpGetSeats, record(s, OpGetSeats, seats)),
	), opts))
	intraOpts := opts
	if o.token != "" {
		intraOpts.Tokens = NewTokens(o.token, o.accepted...)
	}
	if o.tokens != nil {
		intraOpts.Tokens = o.tokens
	}
	mux.Handle(IntraClusterServicePath, NewHandler(IntraClusterService(
		Op(OpSendPrimarySeller, record(s, OpSendPrimarySeller, o.send)),
		Op(OpSendBackupSeller, record(s, OpSendBackupSeller, o.send)),
		Op(OpRelevantBySrc, record(s, OpRelevantBySrc, o.bySrc)),
		Op(OpRelevantByDst, record(s, OpRelevantByDst, o.byDst)),
		Op(OpRelevantFlights, record(s, OpRelevantFlights, func(_ context.Context, req *RelevantFlightsRequest) (*RelevantBothResponse, error) {
			r := sampleRelevant()
			return &RelevantBothResponse{Sellers: r.Sellers, FromSrc: r.Flights, ToDst: r.Flights[:1]}, nil
		})),
	), intraOpts))
	var h http.Handler = mux
	if o.wrap != nil {
		h = o.wrap(mux)
	}
	ts.Config.Handler = h
	ts.Start()
	t.Cleanup(ts.Close)
	return s
}

func record[Req, Resp any](s *server, op string, fn func(context.Context, *Req) (*Resp, error)) func(context.Context, *Req) (*Resp, error) {
	return func(ctx context.Context, req *Req) (*Resp, error) {
		s.mu.Lock()
		s.seen[op] = append(s.seen[op], *req)
		s.mu.Unlock()
		return fn(ctx, req)
	}
}

// last is the last request op received.
func (s *server) last(t testing.TB, op string) any {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.seen[op]) == 0 {
		t.Fatalf("server saw no %s request", op)
	}
	return s.seen[op][len(s.seen[op])-1]
}

func (s *server) count(op string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.seen[op])
}

func (s *server) seller() *SellerClient {
	return NewSellerClient(s.URL+SellerServicePath, ClientOptions{Timeout: 10 * time.Second})
}

func (s *server) intra() *IntraClient {
	return NewIntraClient(s.URL+IntraClusterServicePath, ClientOptions{Timeout: 10 * time.Second})
}

// testLogger sends the handler's records to the test log, so a failing test shows them.
func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

func sampleTrips() *GetTripsResponse {
	ly001 := Leg{Flight: "LY001", Seller: "LY", Alliance: "star & <sky>", Src: "TLV", Dst: "JFK",
		Departure: "2026-12-01T08:00:00Z", Arrival: "2026-12-01T19:10:00Z", Price: "512.00", Seats: 180}
	ly005 := Leg{Flight: "LY005", Seller: "LY", Alliance: "star & <sky>", Src: "TLV", Dst: "LHR",
		Departure: "2026-12-01T06:00:00Z", Arrival: "2026-12-01T11:00:00Z", Price: "300.10", Seats: 0}
	ua900 := Leg{Flight: "UA900", Seller: "UA", Alliance: "star & <sky>", Src: "LHR", Dst: "JFK",
		Departure: "2026-12-01T12:00:00Z", Arrival: "2026-12-01T20:00:00Z", Price: "400.40", Seats: 12}
	return &GetTripsResponse{
		Alliance:       "star & <sky>",
		Trips:          []Trip{{Price: "512.00", Legs: []Leg{ly001}}, {Price: "700.50", Legs: []Leg{ly005, ua900}}},
		Complete:       false,
		MissingSellers: []string{"AA", "BA"},
	}
}

func sampleFlights(n int) []Flight {
	flights := make([]Flight, n)
	for i := range flights {
		flights[i] = Flight{Flight: "LY" + strconv.Itoa(100+i), Seller: "LY", Src: "TLV", Dst: "JFK",
			Departure: "2026-12-01T08:00:00Z", Arrival: "2026-12-01T19:10:00Z", Price: strconv.Itoa(500+i) + ".25", Seats: 100 + i}
	}
	return flights
}

func sampleRelevant() *RelevantFlightsResponse {
	return &RelevantFlightsResponse{Sellers: []string{"LY", "UA"}, Flights: sampleFlights(3)}
}

// pagedSeller serves flights in pages of size; the cursor is the index of the page's first flight.
func pagedSeller(flights []Flight, size int) func(context.Context, *SendSellerRequest) (*SellerPage, error) {
	return func(_ context.Context, req *SendSellerRequest) (*SellerPage, error) {
		from := 0
		if req.Cursor != "" {
			n, err := strconv.Atoi(req.Cursor)
			if err != nil || n < 0 || n > len(flights) {
				return nil, ClientFault("Cursor %q: not a cursor of this seller", req.Cursor)
			}
			from = n
		}
		to := min(from+size, len(flights))
		page := &SellerPage{Seller: req.SellerName, Version: "v7", Flights: flights[from:to]}
		if to < len(flights) {
			page.NextCursor = strconv.Itoa(to)
		}
		return page, nil
	}
}

// clearNames zeroes the XMLName fields decoding fills in, for comparisons of content.
func clearNames(v any) any {
	switch x := v.(type) {
	case *GetTripsResponse:
		c := *x
		c.XMLName = xml.Name{}
		return &c
	case *RelevantFlightsResponse:
		c := *x
		c.XMLName = xml.Name{}
		return &c
	case *RelevantBothResponse:
		c := *x
		c.XMLName = xml.Name{}
		return &c
	case *SellerPage:
		c := *x
		c.XMLName = xml.Name{}
		return &c
	}
	return v
}

// asFault returns err as a *Fault or fails the test.
func asFault(t testing.TB, err error) *Fault {
	t.Helper()
	var f *Fault
	if !errors.As(err, &f) {
		t.Fatalf("error %v (%T) is not a *Fault", err, err)
	}
	return f
}
