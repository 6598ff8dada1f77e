package soap

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestClientResponseLimit(t *testing.T) {
	s := startServer(t, serverOps{})
	c := NewIntraClient(s.URL+IntraClusterServicePath, ClientOptions{MaxBody: 12 << 10})
	big := RelevantBySrcRequest{Src: "TLV", Date: "2026-12-01"}
	// The WSDL (~10 KB) fits, three flights fit, a 100-flight page does not.
	if _, err := c.RelevantBySrc(context.Background(), big); err != nil {
		t.Fatalf("small response: %v", err)
	}
	s2 := startServer(t, serverOps{send: pagedSeller(sampleFlights(100), 100)})
	c = NewIntraClient(s2.URL+IntraClusterServicePath, ClientOptions{MaxBody: 12 << 10})
	_, err := c.SendSeller(context.Background(), RolePrimary, "LY", "")
	if !errors.Is(err, ErrResponseTooLarge) {
		t.Fatalf("50-flight page through an 8 KiB cap: error %v, want ErrResponseTooLarge", err)
	}
}

// TestClientHonoursContext cancels a call that the server holds: the client returns at once
// with the context's error, and the server's operation sees its own context end.
func TestClientHonoursContext(t *testing.T) {
	released := make(chan struct{})
	s := startServer(t, serverOps{getTrips: func(ctx context.Context, _ *GetTripsRequest) (*GetTripsResponse, error) {
		<-ctx.Done()
		close(released)
		return nil, ctx.Err()
	}})
	c := s.seller()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	began := time.Now()
	_, err := c.GetTrips(ctx, GetTripsRequest{Src: "TLV", Dst: "JFK", Date: "2026-12-01"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want context.DeadlineExceeded", err)
	}
	if took := time.Since(began); took > 5*time.Second {
		t.Errorf("call returned after %v, long after its 200ms deadline", took)
	}
	select {
	case <-released:
	case <-time.After(5 * time.Second):
		t.Fatal("server operation's context was not cancelled when the client gave up")
	}
}

// TestClientDeadlineDuringWSDLFetch holds the WSDL request: the call still ends at its deadline
// with the context's error.
func TestClientDeadlineDuringWSDLFetch(t *testing.T) {
	s := startServer(t, serverOps{wrap: func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet {
				<-r.Context().Done()
				return
			}
			next.ServeHTTP(w, r)
		})
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := s.seller().GetTrips(ctx, GetTripsRequest{Src: "TLV"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want context.DeadlineExceeded", err)
	}
}

func TestClientTimeout(t *testing.T) {
	s := startServer(t, serverOps{getTrips: func(ctx context.Context, _ *GetTripsRequest) (*GetTripsResponse, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}})
	c := NewSellerClient(s.URL+SellerServicePath, ClientOptions{Timeout: 100 * time.Millisecond})
	_, err := c.GetTrips(context.Background(), GetTripsRequest{Src: "TLV"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want context.DeadlineExceeded from ClientOptions.Timeout", err)
	}
}

// TestWSDLFailureDoesNotStick makes the first WSDL fetches fail (an error status, then a
// document that is not a WSDL) and checks that the same client works once the server does.
func TestWSDLFailureDoesNotStick(t *testing.T) {
	var mode atomic.Value
	mode.Store("down")
	s := startServer(t, serverOps{wrap: func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case r.Method == http.MethodGet && mode.Load() == "down":
				http.Error(w, "starting", http.StatusServiceUnavailable)
			case r.Method == http.MethodGet && mode.Load() == "garbage":
				w.Header().Set("Content-Type", "text/xml")
				_, _ = w.Write([]byte(`<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"><portType/></definitions>`))
			default:
				next.ServeHTTP(w, r)
			}
		})
	}})
	c := s.seller()
	req := GetTripsRequest{Src: "TLV", Dst: "JFK", Date: "2026-12-01"}

	if _, err := c.GetTrips(context.Background(), req); err == nil || !strings.Contains(err.Error(), "503") {
		t.Fatalf("WSDL answering 503: error %v, want one naming the status", err)
	}
	mode.Store("garbage")
	if _, err := c.GetTrips(context.Background(), req); !errors.Is(err, ErrBadWSDL) {
		t.Fatalf("WSDL without binding or service: error %v, want ErrBadWSDL", err)
	}
	mode.Store("up")
	if _, err := c.GetTrips(context.Background(), req); err != nil {
		t.Fatalf("after the server came up: %v", err)
	}
}

// TestClientRefetchesWSDLAfterTransportError moves a service to another port: the client, told
// the new address by nobody but the WSDL, finds it after one failed call.
func TestClientRefetchesWSDLAfterTransportError(t *testing.T) {
	target := startServer(t, serverOps{})
	dead := startServer(t, serverOps{})
	var moved atomic.Bool
	front := startServer(t, serverOps{wrap: func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet {
				next.ServeHTTP(w, r)
				return
			}
			// The WSDL sends calls elsewhere: first to a server that then dies, then to target.
			to := dead.URL
			if moved.Load() {
				to = target.URL
			}
			writeXML(w, http.StatusOK, sellerWSDL(to+SellerServicePath))
		})
	}})
	c := front.seller()
	req := GetTripsRequest{Src: "TLV", Dst: "JFK", Date: "2026-12-01"}
	if _, err := c.GetTrips(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if dead.count(OpGetTrips) != 1 {
		t.Fatalf("first call reached the WSDL's address %d times, want 1", dead.count(OpGetTrips))
	}
	http.DefaultClient.CloseIdleConnections()
	dead.ts.Close()
	moved.Store(true)
	if _, err := c.GetTrips(context.Background(), req); err == nil {
		t.Fatal("call to a closed server succeeded")
	}
	if _, err := c.GetTrips(context.Background(), req); err != nil {
		t.Fatalf("call after the WSDL changed: %v", err)
	}
	if target.count(OpGetTrips) != 1 {
		t.Errorf("target served %d calls, want 1", target.count(OpGetTrips))
	}
}

func TestClientBadURL(t *testing.T) {
	for _, u := range []string{"", "127.0.0.1:8101/Services/SellerService", "http://[::1", "ftp://host/x"} {
		_, err := NewSellerClient(u, ClientOptions{}).GetTrips(context.Background(), GetTripsRequest{})
		if err == nil || !strings.Contains(err.Error(), "service URL") {
			t.Errorf("URL %q: error %v, want one naming the service URL", u, err)
		}
	}
}
