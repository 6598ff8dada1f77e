package search

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"

	"flightalliance/soap"
)

// TestReadyWhileServingWithoutAnyAlliance: the server is not ready before Serve, ready while it
// serves — with no alliance registered, since alliances register through it — and not ready
// from the moment it shuts down, while a search in flight still finishes.
func TestReadyWhileServingWithoutAnyAlliance(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	held := startDelegate(t, func(ctx context.Context, _ *soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
		close(entered)
		<-release
		r := starTrips
		return &r, nil
	})
	s, err := New(Config{Logger: slog.New(slog.DiscardHandler), DelegateTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if ready, reason := s.Readiness(t.Context()); ready || reason != "starting: not serving yet" {
		t.Errorf("before Serve: %v %q", ready, reason)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, l) }()
	deadline := time.Now().Add(10 * time.Second)
	for ready, _ := s.Readiness(t.Context()); !ready; ready, _ = s.Readiness(t.Context()) {
		if time.Now().After(deadline) {
			t.Fatal("never ready while serving with no alliance registered")
		}
		time.Sleep(5 * time.Millisecond)
	}

	s.Registry().Register("star", held.URI)
	answered := make(chan int, 1)
	go func() {
		resp, err := http.Get("http://" + l.Addr().String() + "/Services/FlightsSearch/flight?" + query)
		if err != nil {
			answered <- 0
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	<-entered
	cancel()
	deadline = time.Now().Add(10 * time.Second)
	for {
		ready, reason := s.Readiness(t.Context())
		if !ready && reason == "shutting down" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("while shutting down: %v %q", ready, reason)
		}
		time.Sleep(5 * time.Millisecond)
	}
	close(release)
	if code := <-answered; code != http.StatusOK {
		t.Errorf("the search in flight: %d, want 200", code)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if ready, _ := s.Readiness(t.Context()); ready {
		t.Error("ready after Serve returned")
	}
}
