package search

import (
	"flightalliance/search/booking"

	"context"
	"errors"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"flightalliance/soap"
)

func TestBookingCreatedIs201AndARetryOfTheKeyIs200(t *testing.T) {
	m := newMachine("m1")
	made := map[string]bool{}
	m.reserve = func(_ context.Context, req soap.ReserveRequest) (*soap.ReserveResponse, error) {
		created := !made[req.RequestID]
		made[req.RequestID] = true
		return &soap.ReserveResponse{Booking: wireBooking(), Created: created}, nil
	}
	ts := startAlliance(t, Config{}, m)

	body := `{"alliance":"star","legs":[{"seller":"LY","flight":"LY007"},{"seller":"UA","flight":"UA220"}],"seats":2,"hold":"10m"}`
	code, hdr, b := send(t, http.MethodPost, ts.URL+booking.Path, body, map[string]string{booking.KeyHeader: "trip-42"})
	if code != http.StatusCreated || hdr.Get("Location") != booking.Path+"/"+sampleBookingID {
		t.Fatalf("first: %d (Location %q) %s", code, hdr.Get("Location"), b)
	}
	got := bookingOf(t, b)
	want := Booking{ID: sampleBookingID, Alliance: "star", Seats: 2, Price: "860.00", Status: "confirmed", CreatedAt: "2026-11-23T10:00:00Z",
		Legs: []Leg{
			{Flight: "LY007", Seller: "LY", Alliance: "star", Src: "TLV", Dst: "ATH", Departure: "2026-12-01T06:00:00Z", Arrival: "2026-12-01T08:00:00Z", Price: "130.00", Seats: 10},
			{Flight: "UA220", Seller: "UA", Alliance: "star", Src: "ATH", Dst: "JFK", Departure: "2026-12-01T09:30:00Z", Arrival: "2026-12-01T20:00:00Z", Price: "300.00", Seats: 10},
		}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("booking\n got %+v\nwant %+v", got, want)
	}
	if strings.Contains(string(b), "expires_at") {
		t.Errorf("a booking without a hold shows expires_at: %s", b)
	}
	m.mu.Lock()
	sent := m.last
	m.mu.Unlock()
	wantReq := soap.ReserveRequest{Alliance: "star", Legs: []soap.LegRef{{Seller: "LY", Flight: "LY007"}, {Seller: "UA", Flight: "UA220"}},
		Seats: 2, RequestID: "trip-42", Hold: "10m"}
	if !reflect.DeepEqual(sent, wantReq) {
		t.Errorf("forwarded %+v, want %+v", sent, wantReq)
	}

	if code, b := ts.book(t, "trip-42", body); code != http.StatusOK || bookingOf(t, b).ID != sampleBookingID {
		t.Errorf("retry with the same key: %d %s, want 200 and the same booking", code, b)
	}
}

// A fault with a kind, or a Client fault, is the alliance's answer: it maps to its status and
// no other machine is asked — except "unavailable" and "outcome unknown", which only say that
// this machine could not reach a quorum: the next machine is asked with the same key, and when
// every machine says so, the last one's answer is the 503.
func TestBookingFaultsMapToStatusesWithoutFailover(t *testing.T) {
	for _, c := range []struct {
		fault  *soap.Fault
		status int
		says   string
	}{
		{soap.KindFault(soap.KindNotFound, "legs[1].flight: no flight UA999 of seller UA"), 404, "no flight UA999"},
		{soap.KindFault(soap.KindConflict, "flight LY007 has 1 seat left"), 409, "1 seat left"},
		{soap.KindFault(soap.KindKeyReused, "Idempotency-Key k was used for another request"), 422, "another request"},
		{soap.KindFault(soap.KindUnavailable, "no quorum"), 503, "nothing was changed"},
		{soap.KindFault(soap.KindUnknown, "the commit timed out"), 503, "retry with the same Idempotency-Key"},
		{soap.ClientFault("legs: the second flight departs from JFK, not from ATH where the first arrives"), 400, "legs: the second flight"},
	} {
		m1, m2 := newMachine("m1"), newMachine("m2")
		m1.reserve = func(context.Context, soap.ReserveRequest) (*soap.ReserveResponse, error) { return nil, c.fault }
		noQuorum := c.fault.Detail == soap.KindUnavailable || c.fault.Detail == soap.KindUnknown
		if noQuorum {
			m2.reserve = m1.reserve // the whole alliance is without quorum
		}
		ts := startAlliance(t, Config{}, m1, m2)
		code, b := ts.book(t, "k", goodBooking)
		if code != c.status || !strings.Contains(errorOf(t, b), c.says) {
			t.Errorf("%v: %d %s, want %d saying %q", c.fault, code, b, c.status, c.says)
		}
		if calls := m2.called(); noQuorum != (len(calls) > 0) {
			t.Errorf("%v: the alternate was asked: %v", c.fault, calls)
		}
	}
}

// A Server fault without a kind and a transport error say nothing about the request: the next
// machine is asked, with the same key. When every machine fails, 503 names the alliance and the
// last error and tells the client to retry with the same key.
func TestBookingFailsOverOnServerFaultAndTransportError(t *testing.T) {
	m1, m2, m3 := newMachine("m1"), newMachine("m2"), newMachine("m3")
	m1.reserve = func(context.Context, soap.ReserveRequest) (*soap.ReserveResponse, error) {
		return nil, soap.ServerFault("reserve failed on the server")
	}
	m2.reserve = func(context.Context, soap.ReserveRequest) (*soap.ReserveResponse, error) {
		return nil, errors.New("dial tcp 10.0.0.2:8101: connection refused")
	}
	ts := startAlliance(t, Config{}, m1, m2, m3)
	if code, b := ts.book(t, "k7", goodBooking); code != http.StatusCreated {
		t.Fatalf("%d %s, want 201 from the second alternate", code, b)
	}
	for _, m := range []*machine{m1, m2, m3} {
		if got := m.called(); !slices.Equal(got, []string{"reserve k7"}) {
			t.Errorf("%s was asked %q, want once with the key", m.uri, got)
		}
	}

	m3.reserve = m2.reserve
	code, b := ts.book(t, "k8", goodBooking)
	msg := errorOf(t, b)
	if code != http.StatusServiceUnavailable || !strings.Contains(msg, "alliance star") ||
		!strings.Contains(msg, "connection refused") || !strings.Contains(msg, "retry with the same Idempotency-Key") {
		t.Errorf("every machine failing: %d %q", code, msg)
	}
}

// A machine that may have run the request without saying whether it did (outcome unknown, no
// answer in time) is not forgotten when a later one says it cannot take bookings: the answer is
// "outcome unknown, retry with the same key", never "nothing was changed".
func TestBookingOutcomeUnknownIsNotHiddenByALaterUnavailable(t *testing.T) {
	unavailable := func(context.Context, soap.ReserveRequest) (*soap.ReserveResponse, error) {
		return nil, soap.KindFault(soap.KindUnavailable, "no quorum")
	}
	paused := hang[*soap.ReserveResponse](t)
	for _, c := range []struct {
		what  string
		first func(context.Context, soap.ReserveRequest) (*soap.ReserveResponse, error)
	}{
		{"outcome unknown", func(context.Context, soap.ReserveRequest) (*soap.ReserveResponse, error) {
			return nil, soap.KindFault(soap.KindUnknown, "the commit timed out")
		}},
		{"no answer in time", func(context.Context, soap.ReserveRequest) (*soap.ReserveResponse, error) { return paused() }},
	} {
		m1, m2 := newMachine("m1"), newMachine("m2")
		m1.reserve, m2.reserve = c.first, unavailable
		ts := startAlliance(t, Config{DelegateTimeout: 100 * time.Millisecond}, m1, m2)
		code, b := ts.book(t, "k", goodBooking)
		msg := errorOf(t, b)
		if code != http.StatusServiceUnavailable || !strings.Contains(msg, "same Idempotency-Key") || strings.Contains(msg, "nothing was changed") {
			t.Errorf("%s, then unavailable: %d %q; want 503 saying to retry with the same key, never that nothing was changed", c.what, code, msg)
		}
	}
}

func TestBookingTimeoutBoundsTheWholeRequest(t *testing.T) {
	m1, m2 := newMachine("m1"), newMachine("m2")
	paused := hang[*soap.ReserveResponse](t)
	m1.reserve = func(context.Context, soap.ReserveRequest) (*soap.ReserveResponse, error) { return paused() }
	ts := startAlliance(t, Config{DelegateTimeout: 100 * time.Millisecond}, m1, m2)

	// A paused delegate costs one DelegateTimeout, then its alternate books.
	within(t, 3*time.Second, "a booking past a paused delegate", func() {
		if code, b := ts.book(t, "k1", goodBooking); code != http.StatusCreated {
			t.Errorf("paused delegate: %d %s, want 201 from the alternate", code, b)
		}
	})

	// Every machine paused: the answer comes at BookingTimeout, whatever the machines do.
	m3, m4 := newMachine("m3"), newMachine("m4")
	m3.reserve, m4.reserve = m1.reserve, m1.reserve
	ts = startAlliance(t, Config{DelegateTimeout: 10 * time.Second, BookingTimeout: 300 * time.Millisecond}, m3, m4)
	start := time.Now()
	code, b := ts.book(t, "k2", goodBooking)
	took := time.Since(start)
	if code != http.StatusServiceUnavailable || !strings.Contains(errorOf(t, b), "did not answer within 300ms") {
		t.Errorf("all paused: %d %s", code, b)
	}
	if took < 300*time.Millisecond || took > 3*time.Second {
		t.Errorf("all paused: answered after %s, want about the 300ms BookingTimeout", took)
	}
	if len(m4.called()) != 0 {
		t.Errorf("the alternate was asked after the deadline: %v", m4.called())
	}
}

// A registration that went stale is still asked for bookings: its delegate may well answer.
func TestBookingAsksAStaleRegistration(t *testing.T) {
	var late atomic.Bool
	clock := func() time.Time {
		now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
		if late.Load() {
			return now.Add(time.Minute)
		}
		return now
	}
	m := newMachine("m1")
	ts := startAlliance(t, Config{RegistrationTTL: time.Second, Now: clock}, m)
	late.Store(true)
	if !ts.Registry().All()[0].Stale {
		t.Fatal("the registration is not stale")
	}
	if code, b := ts.book(t, "k", goodBooking); code != http.StatusCreated {
		t.Errorf("stale registration: %d %s", code, b)
	}
}

func TestBookingUnknownAllianceOrNonBookerClient(t *testing.T) {
	ts := startAlliance(t, Config{}, newMachine("m1"))
	code, b := ts.book(t, "k", strings.Replace(goodBooking, `"star"`, `"sky"`, 1))
	if msg := errorOf(t, b); code != http.StatusNotFound || !strings.Contains(msg, `"sky"`) {
		t.Errorf("unknown alliance: %d %s", code, msg)
	}
	ts.register(t, "plain", "http://plain.test/Services/SellerService") // its client is a searchOnly
	code, b = ts.book(t, "k", strings.Replace(goodBooking, `"star"`, `"plain"`, 1))
	if msg := errorOf(t, b); code != http.StatusServiceUnavailable || !strings.Contains(msg, "alliance plain cannot take bookings through this server") {
		t.Errorf("non-booker: %d %s", code, msg)
	}
}

func TestBookingMalformedAnswerIs502(t *testing.T) {
	for _, c := range []struct {
		spoil func(*soap.Booking)
		named string
	}{
		{func(b *soap.Booking) { b.Status = "pending" }, "pending"},
		{func(b *soap.Booking) { b.Alliance = "oneworld" }, `alliance "oneworld", not "star"`},
	} {
		m := newMachine("m1")
		m.reserve = func(context.Context, soap.ReserveRequest) (*soap.ReserveResponse, error) {
			b := wireBooking()
			c.spoil(&b)
			return &soap.ReserveResponse{Booking: b, Created: true}, nil
		}
		ts := startAlliance(t, Config{}, m)
		code, b := ts.book(t, "k", goodBooking)
		if msg := errorOf(t, b); code != http.StatusBadGateway || !strings.Contains(msg, c.named) || !strings.Contains(msg, "same Idempotency-Key") {
			t.Errorf("malformed booking: %d %s, want 502 naming %s", code, msg, c.named)
		}
	}
}

func TestBookingCountsRequestsByOpAndCode(t *testing.T) {
	ts := startAlliance(t, Config{}, newMachine("m1"))
	ts.book(t, "k", goodBooking)
	ts.book(t, "", goodBooking)
	send(t, http.MethodGet, ts.URL+booking.Path+"/"+sampleBookingID, "", nil)
	_, body := do(t, http.MethodGet, ts.URL+"/metrics", "")
	for _, line := range []string{
		`search_booking_requests_total{code="201",op="reserve"} 1`,
		`search_booking_requests_total{code="400",op="reserve"} 1`,
		`search_booking_requests_total{code="200",op="get"} 1`,
	} {
		if !strings.Contains(string(body), line) {
			t.Errorf("/metrics lacks %s", line)
		}
	}
}
