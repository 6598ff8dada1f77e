package search

import (
	"flightalliance/search/booking"

	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"flightalliance/soap"
)

// soapMachine is a real SellerService over HTTP whose reserve refuses by the request's key
// ("conflict", "client", ...) and books otherwise, and whose getBooking knows sampleBookingID.
type soapMachine struct {
	URI      string
	reserves atomic.Int64
}

func startSOAPMachine(t *testing.T, reserve func(req *soap.ReserveRequest) (*soap.ReserveResponse, error)) *soapMachine {
	t.Helper()
	m := &soapMachine{}
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	m.URI = srv.URL + soap.SellerServicePath
	booking := func(_ context.Context, req *soap.BookingRequest) (*soap.BookingResponse, error) {
		if req.BookingID != sampleBookingID {
			return nil, soap.KindFault(soap.KindNotFound, "BookingID: no booking %q", req.BookingID)
		}
		return &soap.BookingResponse{Booking: wireBooking()}, nil
	}
	mux.Handle(soap.SellerServicePath, soap.NewHandler(soap.SellerService(
		soap.Op(soap.OpReserve, func(_ context.Context, req *soap.ReserveRequest) (*soap.ReserveResponse, error) {
			m.reserves.Add(1)
			return reserve(req)
		}),
		soap.Op(soap.OpGetBooking, booking),
		soap.Op(soap.OpCancel, booking),
		soap.Op(soap.OpConfirm, booking),
	), soap.HandlerOptions{Address: srv.URL}))
	return m
}

func refuseByKey(req *soap.ReserveRequest) (*soap.ReserveResponse, error) {
	switch req.RequestID {
	case "not-found":
		return nil, soap.KindFault(soap.KindNotFound, "legs[0].flight: seller LY has no flight %s", req.Legs[0].Flight)
	case "conflict":
		return nil, soap.KindFault(soap.KindConflict, "flight LY007 has 1 seat left, 2 asked")
	case "reused":
		return nil, soap.KindFault(soap.KindKeyReused, "Idempotency-Key reused was used for another request")
	case "unavailable":
		return nil, soap.KindFault(soap.KindUnavailable, "alliance star has no quorum")
	case "unknown":
		return nil, soap.KindFault(soap.KindUnknown, "the booking's commit did not finish")
	case "client":
		return nil, soap.ClientFault("legs[1]: UA220 departs ATH 20 minutes after LY007 arrives, the minimum connection is 30m")
	case "server":
		return nil, soap.ServerFault("reserve failed on the server")
	}
	return &soap.ReserveResponse{Booking: wireBooking(), Created: req.Seats == 2 && len(req.Legs) == 2}, nil
}

// TestBookingFaultsMapThroughTheRealWire drives the production client (SOAPDial) against a real
// SOAP handler: each fault kind reaches the REST client as its status, with its message.
func TestBookingFaultsMapThroughTheRealWire(t *testing.T) {
	first := startSOAPMachine(t, refuseByKey)
	second := startSOAPMachine(t, func(req *soap.ReserveRequest) (*soap.ReserveResponse, error) {
		if req.RequestID == "server" {
			return &soap.ReserveResponse{Booking: wireBooking(), Created: true}, nil
		}
		return refuseByKey(req)
	})
	ts := startSearch(t, Config{})
	body := `{"uri":"` + first.URI + `","alternates":["` + second.URI + `"]}`
	if code, b := do(t, http.MethodPut, ts.URL+"/Services/FlightsSearchReg/Register/star", body); code != 200 {
		t.Fatalf("register: %d %s", code, b)
	}
	for _, c := range []struct {
		key    string
		status int
		says   string
		asked  int64 // reserves the alternate saw
	}{
		{"new", 201, "", 0},
		{"not-found", 404, "legs[0].flight: seller LY has no flight LY007", 0},
		{"conflict", 409, "1 seat left", 0},
		{"reused", 422, "another request", 0},
		{"unavailable", 503, "no quorum", 1}, // a machine without quorum: the next one is asked
		{"unknown", 503, "retry with the same Idempotency-Key", 1},
		{"client", 400, "legs[1]: UA220 departs ATH 20 minutes after LY007 arrives, the minimum connection is 30m", 0},
		{"server", 201, "", 1},
	} {
		before := second.reserves.Load()
		code, b := ts.book(t, c.key, goodBooking)
		switch {
		case code != c.status:
			t.Errorf("%s: %d %s, want %d", c.key, code, b, c.status)
		case c.says == "":
			if bk := bookingOf(t, b); bk.ID != sampleBookingID || len(bk.Legs) != 2 || bk.Price != "860.00" {
				t.Errorf("%s: booking %+v", c.key, bk)
			}
		case !strings.Contains(errorOf(t, b), c.says):
			t.Errorf("%s: %q does not say %q", c.key, errorOf(t, b), c.says)
		}
		if asked := second.reserves.Load() - before; asked != c.asked {
			t.Errorf("%s: the alternate was asked %d times, want %d", c.key, asked, c.asked)
		}
	}

	code, _, b := send(t, http.MethodDelete, ts.URL+booking.Path+"/"+sampleBookingID, "", map[string]string{booking.KeyHeader: "c1"})
	if code != http.StatusOK || bookingOf(t, b).ID != sampleBookingID {
		t.Errorf("cancel over SOAP: %d %s", code, b)
	}
	code, _, b = send(t, http.MethodGet, ts.URL+booking.Path+"/star.zzzzzzzzzzzzzzzzzzzzzzzzzz", "", nil)
	if code != http.StatusNotFound || !strings.Contains(errorOf(t, b), "no booking") {
		t.Errorf("unknown booking over SOAP: %d %s", code, b)
	}
}

// A machine that is gone (connection refused) is a transport error: the alternate books.
func TestBookingFailsOverFromAnUnreachableMachine(t *testing.T) {
	gone := httptest.NewServer(http.NotFoundHandler())
	goneURI := gone.URL + soap.SellerServicePath
	gone.Close()
	alive := startSOAPMachine(t, refuseByKey)
	ts := startSearch(t, Config{})
	body := `{"uri":"` + goneURI + `","alternates":["` + alive.URI + `"]}`
	if code, b := do(t, http.MethodPut, ts.URL+"/Services/FlightsSearchReg/Register/star", body); code != 200 {
		t.Fatalf("register: %d %s", code, b)
	}
	if code, b := ts.book(t, "k", goodBooking); code != http.StatusCreated || alive.reserves.Load() != 1 {
		t.Errorf("%d %s; the alternate booked %d times", code, b, alive.reserves.Load())
	}
}
