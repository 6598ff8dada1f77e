package soap

import (
	"context"
	"encoding/xml"
	"reflect"
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
	seats, err := c.GetSeats(ctx, "LY", "LY001")
	if err != nil || seats.Left != 178 || seats.Flight != "LY001" {
		t.Errorf("getSeats: %+v, %v", seats, err)
	}
}
