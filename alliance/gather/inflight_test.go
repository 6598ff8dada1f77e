package gather

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/soap"
)

// heldSearch is a search of TLV→JFK whose holders are asked and then held until release is
// closed, and a second search run beside it.
type heldSearch struct {
	a       *schedule
	s       *Search
	release chan struct{}
	first   chan answer // the held search's answer
}

type answer struct {
	resp *soap.GetTripsResponse
	err  error
}

func request(src, dst string) *soap.GetTripsRequest {
	return &soap.GetTripsRequest{Src: src, Dst: dst, Date: "2026-12-01"}
}

// holdFirstSearch starts TLV→JFK and returns once both sellers' holders were asked for it.
func holdFirstSearch(t *testing.T, prepare func(a *schedule)) *heldSearch {
	t.Helper()
	h := &heldSearch{a: hubSchedule(2), release: make(chan struct{}), first: make(chan answer, 1)}
	h.s, _ = newFlightCacheSearch(t, h.a, 1000)
	if prepare != nil {
		prepare(h.a)
	}
	var asked sync.WaitGroup
	asked.Add(2)
	h.a.hold = func(q string) {
		if strings.HasSuffix(q, " TLV→JFK") {
			asked.Done()
			<-h.release
		}
	}
	go func() {
		resp, err := h.s.GetTrips(context.Background(), request("TLV", "JFK"))
		h.first <- answer{resp, err}
	}()
	t.Cleanup(func() {
		select {
		case <-h.release:
		default:
			close(h.release)
		}
	})
	asked.Wait()
	return h
}

// start runs a search beside the held one.
func (h *heldSearch) start(src, dst string) chan answer {
	out := make(chan answer, 1)
	go func() {
		resp, err := h.s.GetTrips(context.Background(), request(src, dst))
		out <- answer{resp, err}
	}()
	return out
}

func waitAnswer(t *testing.T, ch chan answer, what string) *soap.GetTripsResponse {
	t.Helper()
	select {
	case a := <-ch:
		if a.err != nil {
			t.Fatalf("%s: %v", what, a.err)
		}
		return a.resp
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: no answer within 30s", what)
	}
	return nil
}

func waitAsked(t *testing.T, a *schedule, want ...string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !a.askedYet(want...) {
		if time.Now().After(deadline) {
			t.Fatalf("never asked %v (asked %v)", want, a.questions())
		}
		time.Sleep(time.Millisecond)
	}
}

// TestAListUnderWayIsAskedOnce: a search that lacks a list another search is asking the holders
// for waits for that answer rather than asking again, and answers as an uncached search does.
func TestAListUnderWayIsAskedOnce(t *testing.T) {
	h := holdFirstSearch(t, nil)
	second := h.start("TLV", "CDG") // shares the flights out of TLV
	waitAsked(t, h.a, "LY →CDG", "UA →CDG")
	close(h.release)
	sameAsUncached(t, h.s, request("TLV", "JFK"), waitAnswer(t, h.first, "TLV→JFK"))
	sameAsUncached(t, h.s, request("TLV", "CDG"), waitAnswer(t, second, "TLV→CDG"))
	if got, want := h.a.questions(), []string{"LY TLV→JFK", "LY →CDG", "UA TLV→JFK", "UA →CDG"}; !slices.Equal(got, want) {
		t.Errorf("asked %v, want %v: the flights out of TLV once", got, want)
	}
}

// TestAListThatCameUnansweredIsAskedAgain: when the holder of the search that was asking for a
// list does not answer for its seller, a search that waited for it asks for it itself — its
// answer is complete; the first names the seller missing.
func TestAListThatCameUnansweredIsAskedAgain(t *testing.T) {
	h := holdFirstSearch(t, func(a *schedule) { a.failOnce["LY"] = true })
	second := h.start("TLV", "CDG")
	waitAsked(t, h.a, "LY →CDG", "UA →CDG")
	close(h.release)
	if first := waitAnswer(t, h.first, "TLV→JFK"); first.Complete || !slices.Equal(first.MissingSellers, []string{"LY"}) {
		t.Errorf("TLV→JFK with LY's holder failing once: complete %v, missing %v; want LY missing", first.Complete, first.MissingSellers)
	}
	sameAsUncached(t, h.s, request("TLV", "CDG"), waitAnswer(t, second, "TLV→CDG"))
	if got, want := h.a.questions(), []string{"LY TLV→", "LY TLV→JFK", "LY →CDG", "UA TLV→JFK", "UA →CDG"}; !slices.Equal(got, want) {
		t.Errorf("asked %v, want %v: LY's flights out of TLV again, by the search that waited", got, want)
	}
}

// TestAPurgeEndsTheWaitForListsUnderWay: a search after a purge asks for every list itself, and
// answers while a search from before the purge is still asking.
func TestAPurgeEndsTheWaitForListsUnderWay(t *testing.T) {
	h := holdFirstSearch(t, nil)
	h.s.Purge()
	sameAsUncached(t, h.s, request("TLV", "CDG"), waitAnswer(t, h.start("TLV", "CDG"), "TLV→CDG after the purge"))
	close(h.release)
	sameAsUncached(t, h.s, request("TLV", "JFK"), waitAnswer(t, h.first, "TLV→JFK"))
	if got, want := h.a.questions(), []string{"LY TLV→CDG", "LY TLV→JFK", "UA TLV→CDG", "UA TLV→JFK"}; !slices.Equal(got, want) {
		t.Errorf("asked %v, want %v", got, want)
	}
}

// TestASellersListsAreSharedAsSoonAsItsHolderAnswers: a search's lists of a seller whose holder
// answered are kept (and its waiters served) while another seller's holder still answers.
func TestASellersListsAreSharedAsSoonAsItsHolderAnswers(t *testing.T) {
	a := hubSchedule(2)
	s, _ := newFlightCacheSearch(t, a, 1000)
	release := make(chan struct{})
	defer close(release)
	a.hold = func(q string) {
		if q == "UA TLV→JFK" {
			<-release
		}
	}
	go func() { _, _ = s.GetTrips(context.Background(), request("TLV", "JFK")) }() // held until the test ends
	date, _ := flight.ParseDate("2026-12-01")
	deadline := time.Now().Add(30 * time.Second)
	for {
		s.flights.mu.Lock()
		_, src := s.flights.lists.Get(sideKey{"LY", date, true, "TLV"})
		_, dst := s.flights.lists.Get(sideKey{"LY", date, false, "JFK"})
		s.flights.mu.Unlock()
		if src && dst {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("LY's lists not kept within 30s while UA's holder was still answering")
		}
		time.Sleep(time.Millisecond)
	}
}
