package soap

import (
	"context"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func sampleBooking() Booking {
	trips := sampleTrips().Trips
	return Booking{
		ID: "bk0123456789abcdefghijklmn", Alliance: "star", Legs: trips[len(trips)-1].Legs, Seats: 2,
		Price: "1024.00", Status: StatusHeld, CreatedAt: "2026-11-23T10:00:00Z", ExpiresAt: "2026-11-23T10:10:00Z",
	}
}

// TestReserveRoundTrip sends a request with a list of structures (the legs) through gosoap and
// reads the booking back: nested elements must arrive as the server's types expect them.
func TestReserveRoundTrip(t *testing.T) {
	s := startServer(t, serverOps{})
	req := ReserveRequest{Alliance: "star", Legs: []LegRef{{Seller: "LY", Flight: "LY001"}, {Seller: "UA", Flight: "UA123"}},
		Seats: 2, RequestID: "key-1", Hold: "10m"}
	resp, err := s.seller().Reserve(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	got := s.last(t, OpReserve).(ReserveRequest)
	got.XMLName = xml.Name{}
	if !reflect.DeepEqual(got, req) {
		t.Errorf("server decoded %+v, client sent %+v", got, req)
	}
	if !resp.Created || !reflect.DeepEqual(resp.Booking, sampleBooking()) {
		t.Errorf("client decoded %+v, server sent %+v", resp.Booking, sampleBooking())
	}
}

func TestBookingOpsRoundTrip(t *testing.T) {
	s := startServer(t, serverOps{})
	c := s.seller()
	ctx := context.Background()
	for op, call := range map[string]func() (*Booking, error){
		OpCancel:     func() (*Booking, error) { return c.Cancel(ctx, sampleBooking().ID, "r1") },
		OpConfirm:    func() (*Booking, error) { return c.Confirm(ctx, sampleBooking().ID, "r2") },
		OpGetBooking: func() (*Booking, error) { return c.GetBooking(ctx, sampleBooking().ID) },
	} {
		b, err := call()
		if err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		if !reflect.DeepEqual(*b, sampleBooking()) {
			t.Errorf("%s: client decoded %+v", op, *b)
		}
		if got := s.last(t, op).(BookingRequest); got.XMLName.Local != op || got.BookingID != sampleBooking().ID {
			t.Errorf("%s: server decoded %+v", op, got)
		}
	}
	_, err := c.GetBooking(ctx, "nope")
	if FaultKind(err) != KindNotFound {
		t.Errorf("unknown booking: %v, want a %s fault", err, KindNotFound)
	}
	seats, err := c.GetSeats(ctx, "star", "LY", "LY001")
	if err != nil || seats.Left != 178 || seats.Flight != "LY001" {
		t.Errorf("getSeats: %+v, %v", seats, err)
	}
	if got := s.last(t, OpGetSeats).(GetSeatsRequest); got.Alliance != "star" || got.Seller != "LY" {
		t.Errorf("getSeats: server decoded %+v", got)
	}
}

// TestRequestValueNamesItsElement: a value that does not convert is refused naming its element.
func TestRequestValueNamesItsElement(t *testing.T) {
	s := startServer(t, serverOps{})
	for value, want := range map[string]string{"abc": `Seats: "abc" is not a number`, "99999999999999999999999": `Seats: "99999999999999999999…" is not a number`} {
		body := envelope(`<reserve xmlns="urn:flightalliance:v1"><Alliance>star</Alliance><Legs><Seller>LY</Seller><Flight>LY001</Flight></Legs><Seats>` + value + `</Seats><RequestID>k</RequestID></reserve>`)
		resp, err := http.Post(s.URL+SellerServicePath, "text/xml; charset=utf-8", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		err = decodeResponse(envelopeBody(t, raw), "reserveResponse", &ReserveResponse{})
		var f *Fault
		if !errors.As(err, &f) || f.Code != CodeClient || f.String != want {
			t.Errorf("Seats %q: %v, want a Client fault %q", value, err, want)
		}
	}
	if s.count(OpReserve) != 0 {
		t.Error("the operation ran on a request it could not read")
	}
}

// envelopeBody is the inner XML of a response envelope's soap:Body.
func envelopeBody(t *testing.T, raw []byte) []byte {
	t.Helper()
	var env struct {
		Body struct {
			Inner []byte `xml:",innerxml"`
		} `xml:"Body"`
	}
	if err := xml.Unmarshal(raw, &env); err != nil {
		t.Fatalf("%v\n%s", err, raw)
	}
	return env.Body.Inner
}
