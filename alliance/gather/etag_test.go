package gather

import (
	"context"
	"testing"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/ledger"
	"flightalliance/alliance/trip"
	"flightalliance/coord"
	"flightalliance/soap"
)

// TestConditionalGetTrips: an answer's ETag comes back NotModified for the same request while
// nothing it shows changed, and a full answer with a new ETag once the seats, the data, or the
// request differ; a machine that did not give the ETag never matches it.
func TestConditionalGetTrips(t *testing.T) {
	h := &oneHolder{release: make(chan struct{})}
	close(h.release)
	s := newOnceSearch(t, h, 16)
	ask := func(req soap.GetTripsRequest) *soap.GetTripsResponse {
		t.Helper()
		resp, err := s.GetTrips(context.Background(), &req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	first := ask(*tlvJFK)
	if first.ETag == "" || first.NotModified || !first.Complete {
		t.Fatalf("first answer: %+v; want complete with an ETag", first)
	}
	again := *tlvJFK
	again.IfNoneMatch = first.ETag
	if r := ask(again); !r.NotModified || r.ETag != first.ETag || len(r.Trips) != 0 || !r.Complete {
		t.Errorf("the same request with its ETag: %+v; want NotModified, no trips", r)
	}
	other := again
	other.MaxTrips = 5
	if r := ask(other); r.NotModified || r.ETag == first.ETag {
		t.Errorf("another page with the first page's ETag: NotModified %v, ETag %q; want a full answer of its own", r.NotModified, r.ETag)
	}
	s.seats.Apply(coord.Event{Type: coord.EventCreated, Name: "LY/LY001", Value: []byte("3")}) // a booking
	seatsChanged := ask(again)
	if seatsChanged.NotModified || seatsChanged.ETag == first.ETag || seatsChanged.ETag == "" {
		t.Errorf("after a seat counter changed: NotModified %v, ETag %q; want a full answer with a new ETag", seatsChanged.NotModified, seatsChanged.ETag)
	}
	s.Purge() // the alliance's data changed
	again.IfNoneMatch = seatsChanged.ETag
	if r := ask(again); r.NotModified || r.ETag == seatsChanged.ETag {
		t.Errorf("after a purge: NotModified %v, ETag %q; want a full answer with a new ETag", r.NotModified, r.ETag)
	}
	restarted := newOnceSearch(t, h, 16) // the same data on a machine started again
	current := ask(*tlvJFK).ETag
	again.IfNoneMatch = current
	resp, err := restarted.GetTrips(context.Background(), &again)
	if err != nil || resp.NotModified {
		t.Errorf("another incarnation matched an ETag it did not give: %+v, %v", resp, err)
	}
}

// lostHolder is an alliance whose one holder of LY has lost it: every answer lacks LY.
type lostHolder struct{ oneHolder }

func (*lostHolder) Ask(context.Context, string, trip.Query, Sides, []string) (src, dst []flight.Flight, covered []string, heard bool) {
	return nil, nil, nil, true
}

func TestAnIncompleteAnswerHasNoETag(t *testing.T) {
	s := New(Config{Alliance: "star", CacheSize: 16}, &lostHolder{}, ledger.NewSeats("star"), newOnceSearch(t, &oneHolder{}, 0).metrics)
	resp, err := s.GetTrips(context.Background(), tlvJFK)
	if err != nil || resp.Complete || resp.ETag != "" || len(resp.MissingSellers) != 1 {
		t.Errorf("an answer missing LY: %+v, %v; want incomplete, without an ETag", resp, err)
	}
}
