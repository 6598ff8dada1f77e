package soap

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"flightalliance/internal/zeeptest"
)

// TestZeepSoapClient has an independent, WSDL-driven toolkit — zeep, from Debian's python3-zeep —
// call both services. It proves that the WSDLs are usable by a strict standard toolkit and that
// the server understands what the toolkit sends.
//
// It needs python3-zeep (`make deps` installs it) and fails, rather than skips, without it.
func TestZeepSoapClient(t *testing.T) {
	dir := filepath.Join("testdata", "zeepclient")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	s := startServer(t, serverOps{
		byDst: func(_ context.Context, req *RelevantByDstRequest) (*RelevantFlightsResponse, error) {
			return nil, ClientFault("Dst %q: unknown airport", req.Dst)
		},
	})
	cmd := zeeptest.Command(ctx, t, dir, "client.py", s.URL)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("client.py: %v\nstderr:\n%s\nstdout:\n%s", err, stderr.String(), stdout.String())
	}
	t.Logf("client.py printed:\n%s", stdout.String())

	// What the server understood of the toolkit's requests.
	trips := s.last(t, OpGetTrips).(GetTripsRequest)
	if trips.XMLName.Space != Namespace || trips.Src != "TLV" || trips.Dst != "JFK" || trips.Date != "2026-12-01" ||
		!reflect.DeepEqual(trips.Sellers, []string{"LY", "UA"}) {
		t.Errorf("server decoded zeep's getTrips as %+v", trips)
	}
	send := s.last(t, OpSendPrimarySeller).(SendSellerRequest)
	if send.XMLName.Space != Namespace || send.SellerName != "LY" || send.Cursor != "2" {
		t.Errorf("server decoded zeep's sendPrimarySeller as %+v", send)
	}

	// What the toolkit understood of the server's answers.
	var out struct {
		GetTrips struct {
			Result struct {
				Alliance string
				Trips    []struct {
					Price float64 // the schema says xsd:decimal: zeep reads a Decimal, client.py prints a number
					Legs  []map[string]any
				}
				Complete       bool
				MissingSellers []string
			}
		}
		SendPrimarySeller struct {
			Result struct {
				Seller, Version, NextCursor string
				Flights                     []map[string]any
			}
		}
		GetRelevantFlightsByDst struct {
			Fault struct{ Code, String string }
		}
		Reserve struct {
			Result struct {
				Booking struct {
					ID, Status, ExpiresAt string
					Seats                 int
					Legs                  []map[string]any
				}
				Created bool
			}
		}
		GetBooking struct {
			Fault struct{ Code, String, Detail string }
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("client.py output: %v", err)
	}
	want := sampleTrips()
	got := out.GetTrips.Result
	if got.Alliance != want.Alliance || got.Complete != want.Complete || !reflect.DeepEqual(got.MissingSellers, want.MissingSellers) ||
		len(got.Trips) != 2 || len(got.Trips[0].Legs) != 1 || len(got.Trips[1].Legs) != 2 {
		t.Fatalf("zeep decoded getTrips as %+v", got)
	}
	// xsd:dateTime becomes a Python datetime in UTC, printed in ISO 8601.
	if leg := got.Trips[1].Legs[1]; got.Trips[1].Price != 700.5 || leg["Flight"] != "UA900" || leg["Seats"] != 12.0 ||
		leg["Price"] != 400.4 || leg["Departure"] != "2026-12-01T12:00:00+00:00" {
		t.Errorf("zeep decoded the connection as %+v", got.Trips[1])
	}
	page := out.SendPrimarySeller.Result
	if page.Seller != "LY" || page.Version != "v7" || page.NextCursor != "4" || len(page.Flights) != 2 || page.Flights[0]["Flight"] != "LY102" {
		t.Errorf("zeep decoded sendPrimarySeller as %+v", page)
	}
	if f := out.GetRelevantFlightsByDst.Fault; f.Code != CodeClient || f.String != `Dst "XXX": unknown airport` {
		t.Errorf("zeep saw the fault as %+v", f)
	}

	// Bookings: a request with a list of structures, and a fault whose detail says its kind.
	reserve := s.last(t, OpReserve).(ReserveRequest)
	wantLegs := []LegRef{{Seller: "LY", Flight: "LY001"}, {Seller: "UA", Flight: "UA123"}}
	if reserve.XMLName.Space != Namespace || reserve.Alliance != "star" || !reflect.DeepEqual(reserve.Legs, wantLegs) ||
		reserve.Seats != 2 || reserve.RequestID != "zeep-key-1" || reserve.Hold != "10m" {
		t.Errorf("server decoded zeep's reserve as %+v", reserve)
	}
	if b := out.Reserve.Result; !b.Created || b.Booking.ID != sampleBooking().ID || b.Booking.Status != StatusHeld ||
		b.Booking.Seats != 2 || len(b.Booking.Legs) != len(sampleBooking().Legs) {
		t.Errorf("zeep decoded reserve as %+v", b)
	}
	if f := out.GetBooking.Fault; f.Code != CodeClient || f.Detail != KindNotFound {
		t.Errorf("zeep saw the unknown booking's fault as %+v", f)
	}
}
