package soap

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"flightalliance/internal/nodetest"
)

// TestNodeSoapClient has an independent, WSDL-driven toolkit — the npm soap package, pinned in
// testdata/nodeclient/package-lock.json — call both services. It proves that the WSDLs are
// usable by a standard toolkit and that the server understands what the toolkit sends.
//
// It needs node and npm (CI has them) and fails, rather than skips, without them.
func TestNodeSoapClient(t *testing.T) {
	dir := filepath.Join("testdata", "nodeclient")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	node := nodetest.Node(ctx, t, dir)

	s := startServer(t, serverOps{
		byDst: func(_ context.Context, req *RelevantByDstRequest) (*RelevantFlightsResponse, error) {
			return nil, ClientFault("Dst %q: unknown airport", req.Dst)
		},
	})
	cmd := exec.CommandContext(ctx, node, "client.js", s.URL)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node client.js: %v\nstderr:\n%s\nstdout:\n%s", err, stderr.String(), stdout.String())
	}
	t.Logf("node client.js printed:\n%s", stdout.String())

	// What the server understood of the toolkit's requests.
	trips := s.last(t, OpGetTrips).(GetTripsRequest)
	if trips.XMLName.Space != Namespace || trips.Src != "TLV" || trips.Dst != "JFK" || trips.Date != "2026-12-01" ||
		!reflect.DeepEqual(trips.Sellers, []string{"LY", "UA"}) {
		t.Errorf("server decoded node's getTrips as %+v", trips)
	}
	send := s.last(t, OpSendPrimarySeller).(SendSellerRequest)
	if send.XMLName.Space != Namespace || send.SellerName != "LY" || send.Cursor != "2" {
		t.Errorf("server decoded node's sendPrimarySeller as %+v", send)
	}

	// What the toolkit understood of the server's answers.
	var out struct {
		GetTrips struct {
			Result struct {
				Alliance string
				Trips    []struct {
					Price float64 // the schema says xsd:decimal, and node reads a number
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
		t.Fatalf("node output: %v", err)
	}
	want := sampleTrips()
	got := out.GetTrips.Result
	if got.Alliance != want.Alliance || got.Complete != want.Complete || !reflect.DeepEqual(got.MissingSellers, want.MissingSellers) ||
		len(got.Trips) != 2 || len(got.Trips[0].Legs) != 1 || len(got.Trips[1].Legs) != 2 {
		t.Fatalf("node decoded getTrips as %+v", got)
	}
	// xsd:dateTime becomes a JavaScript Date, printed with milliseconds.
	if leg := got.Trips[1].Legs[1]; got.Trips[1].Price != 700.5 || leg["Flight"] != "UA900" || leg["Seats"] != 12.0 ||
		leg["Price"] != 400.4 || leg["Departure"] != "2026-12-01T12:00:00.000Z" {
		t.Errorf("node decoded the connection as %+v", got.Trips[1])
	}
	page := out.SendPrimarySeller.Result
	if page.Seller != "LY" || page.Version != "v7" || page.NextCursor != "4" || len(page.Flights) != 2 || page.Flights[0]["Flight"] != "LY102" {
		t.Errorf("node decoded sendPrimarySeller as %+v", page)
	}
	if f := out.GetRelevantFlightsByDst.Fault; f.Code != CodeClient || f.String != `Dst "XXX": unknown airport` {
		t.Errorf("node saw the fault as %+v", f)
	}

	// Bookings: a request with a list of structures, and a fault whose detail says its kind.
	reserve := s.last(t, OpReserve).(ReserveRequest)
	wantLegs := []LegRef{{Seller: "LY", Flight: "LY001"}, {Seller: "UA", Flight: "UA123"}}
	if reserve.XMLName.Space != Namespace || reserve.Alliance != "star" || !reflect.DeepEqual(reserve.Legs, wantLegs) ||
		reserve.Seats != 2 || reserve.RequestID != "node-key-1" || reserve.Hold != "10m" {
		t.Errorf("server decoded node's reserve as %+v", reserve)
	}
	if b := out.Reserve.Result; !b.Created || b.Booking.ID != sampleBooking().ID || b.Booking.Status != StatusHeld ||
		b.Booking.Seats != 2 || len(b.Booking.Legs) != len(sampleBooking().Legs) {
		t.Errorf("node decoded reserve as %+v", b)
	}
	if f := out.GetBooking.Fault; f.Code != CodeClient || f.Detail != KindNotFound {
		t.Errorf("node saw the unknown booking's fault as %+v", f)
	}
}
