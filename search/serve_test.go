package search

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"

	"flightalliance/soap"
)

// TestServeShutsDownGracefully: cancelling Serve's context lets a search in flight finish with
// its full answer, refuses new connections, and Serve returns nil.
func TestServeShutsDownGracefully(t *testing.T) {
	entered := make(chan struct{})
	release := make(chan struct{})
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
	s.Registry().Register("star", held.URI)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, l) }()

	type result struct {
		code int
		ans  Answer
		err  error
	}
	got := make(chan result, 1)
	go func() {
		resp, err := http.Get("http://" + l.Addr().String() + "/Services/FlightsSearch/flight?" + query)
		if err != nil {
			got <- result{err: err}
			return
		}
		defer resp.Body.Close()
		var a Answer
		b, _ := io.ReadAll(resp.Body)
		err = json.Unmarshal(b, &a)
		got <- result{resp.StatusCode, a, err}
	}()
	<-entered // the search is in flight, waiting on the delegate
	cancel()
	eventually(t, 5*time.Second, "the listener still accepts connections after shutdown began", func() bool {
		c, err := net.DialTimeout("tcp", l.Addr().String(), time.Second)
		if err == nil {
			c.Close()
		}
		return err != nil
	})
	close(release)
	r := <-got
	if r.err != nil || r.code != http.StatusOK || !r.ans.Complete || len(r.ans.Trips) != 2 {
		t.Errorf("search in flight during shutdown: %d %+v %v", r.code, r.ans, r.err)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve returned %v after a graceful shutdown", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after its context was cancelled")
	}
}
