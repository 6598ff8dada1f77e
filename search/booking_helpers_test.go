package search

import (
	"flightalliance/search/booking"

	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"flightalliance/soap"
)

// machine is an in-process machine of an alliance as the search server's client sees it: a
// Booker (and a Delegate) whose operations do what the test says and record what they were asked.
type machine struct {
	uri     string
	reserve func(ctx context.Context, req soap.ReserveRequest) (*soap.ReserveResponse, error)
	booking func(ctx context.Context, op, id, key string) (*soap.Booking, error)
	seats   func(ctx context.Context, seller, flight string) (*soap.GetSeatsResponse, error)

	searches atomic.Int64 // getTrips calls (not in calls: tests of bookings search too)

	mu    sync.Mutex
	calls []string // "reserve key", "cancel id key", ...
	last  soap.ReserveRequest
}

// newMachine is a machine that books, finds sampleBookingID and counts seats; tests replace
// the operations they need otherwise.
func newMachine(name string) *machine {
	return &machine{
		uri: "http://" + name + ".test:8101/Services/SellerService",
		reserve: func(context.Context, soap.ReserveRequest) (*soap.ReserveResponse, error) {
			return &soap.ReserveResponse{Booking: wireBooking(), Created: true}, nil
		},
		booking: func(_ context.Context, op, id, _ string) (*soap.Booking, error) {
			if id != sampleBookingID {
				return nil, soap.KindFault(soap.KindNotFound, "BookingID: no booking %q", id)
			}
			b := wireBooking()
			switch op {
			case soap.OpCancel:
				b.Status = soap.StatusCancelled
			case soap.OpConfirm:
				b.Status = soap.StatusConfirmed
			}
			return &b, nil
		},
		seats: func(_ context.Context, seller, flight string) (*soap.GetSeatsResponse, error) {
			return &soap.GetSeatsResponse{Seller: seller, Flight: flight, Capacity: 180, Booked: 2, Left: 178}, nil
		},
	}
}

func (m *machine) record(call string) {
	m.mu.Lock()
	m.calls = append(m.calls, call)
	m.mu.Unlock()
}

// called returns what the machine was asked, in order.
func (m *machine) called() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.calls...)
}

func (m *machine) GetTrips(context.Context, soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
	m.searches.Add(1)
	return &soap.GetTripsResponse{Complete: true}, nil
}

func (m *machine) Reserve(ctx context.Context, req soap.ReserveRequest) (*soap.ReserveResponse, error) {
	m.record("reserve " + req.RequestID)
	m.mu.Lock()
	m.last = req
	m.mu.Unlock()
	return m.reserve(ctx, req)
}

func (m *machine) Cancel(ctx context.Context, id, key string) (*soap.Booking, error) {
	m.record(fmt.Sprintf("cancel %s %s", id, key))
	return m.booking(ctx, soap.OpCancel, id, key)
}

func (m *machine) Confirm(ctx context.Context, id, key string) (*soap.Booking, error) {
	m.record(fmt.Sprintf("confirm %s %s", id, key))
	return m.booking(ctx, soap.OpConfirm, id, key)
}

func (m *machine) GetBooking(ctx context.Context, id string) (*soap.Booking, error) {
	m.record("getBooking " + id)
	return m.booking(ctx, soap.OpGetBooking, id, "")
}

func (m *machine) GetSeats(ctx context.Context, alliance, seller, flight string) (*soap.GetSeatsResponse, error) {
	m.record(fmt.Sprintf("getSeats %s %s %s", alliance, seller, flight))
	return m.seats(ctx, seller, flight)
}

// searchOnly is a delegate client without booking operations.
type searchOnly struct{}

func (searchOnly) GetTrips(context.Context, soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
	return &soap.GetTripsResponse{Complete: true}, nil
}

// dialMachines is a Dial whose clients are the machines, and searchOnly for any other URI.
func dialMachines(machines []*machine) DialFunc {
	byURI := map[string]Delegate{}
	for _, m := range machines {
		byURI[m.uri] = m
	}
	return func(uri string) (Delegate, error) {
		if d, ok := byURI[uri]; ok {
			return d, nil
		}
		return searchOnly{}, nil
	}
}

// startAlliance runs a search server whose clients are the given machines, with alliance "star"
// registered: the first machine as delegate, the others as its alternates in order.
func startAlliance(t testing.TB, cfg Config, machines ...*machine) *testServer {
	t.Helper()
	cfg.Dial = dialMachines(machines)
	ts := startSearch(t, cfg)
	body := RegisterBody{URI: machines[0].uri}
	for _, m := range machines[1:] {
		body.Alternates = append(body.Alternates, m.uri)
	}
	b, _ := json.Marshal(body)
	if code, out := do(t, http.MethodPut, ts.URL+"/Services/FlightsSearchReg/Register/star", string(b)); code != http.StatusOK {
		t.Fatalf("register star: %d %s", code, out)
	}
	return ts
}

// sampleBookingID is the booking every newMachine knows.
const sampleBookingID = "star.abcdefghijklmnopqrstuvwxyz"

const goodBooking = `{"alliance":"star","legs":[{"seller":"LY","flight":"LY007"},{"seller":"UA","flight":"UA220"}],"seats":2}`

func wireBooking() soap.Booking {
	return soap.Booking{ID: sampleBookingID, Alliance: "star",
		Legs:  []soap.Leg{leg("LY007", "TLV", "ATH", "06:00", "08:00", "130.00"), leg("UA220", "ATH", "JFK", "09:30", "20:00", "300.00")},
		Seats: 2, Price: "860", Status: soap.StatusConfirmed, CreatedAt: "2026-11-23T10:00:00Z"}
}

// send makes a request with the given headers and returns the status, the headers and the body.
func send(t testing.TB, method, url, body string, header map[string]string) (int, http.Header, []byte) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, b
}

// book posts a booking request with the Idempotency-Key key.
func (ts *testServer) book(t testing.TB, key, body string) (int, []byte) {
	t.Helper()
	code, _, b := send(t, http.MethodPost, ts.URL+booking.Path, body, map[string]string{booking.KeyHeader: key})
	return code, b
}

// errorOf decodes an {"error": ...} body, failing the test on any other shape.
func errorOf(t testing.TB, body []byte) string {
	t.Helper()
	var e ErrorBody
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil || e.Error == "" {
		t.Fatalf("not an error body: %s", body)
	}
	return e.Error
}

// bookingOf decodes a booking body strictly.
func bookingOf(t testing.TB, body []byte) Booking {
	t.Helper()
	var b Booking
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		t.Fatalf("not a booking: %v: %s", err, body)
	}
	return b
}

// hang is an operation that answers only after the test ends, whatever its context says: a
// paused machine.
func hang[T any](t testing.TB) func() (T, error) {
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	return func() (T, error) {
		<-stop
		var zero T
		return zero, fmt.Errorf("released at the end of the test")
	}
}

// within fails the test when f takes longer than d.
func within(t testing.TB, d time.Duration, what string, f func()) {
	t.Helper()
	start := time.Now()
	f()
	if took := time.Since(start); took > d {
		t.Errorf("%s took %s, want at most %s", what, took, d)
	}
}
