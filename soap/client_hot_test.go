package soap

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"flightalliance/soap/xmlcodec"
)

// TestHotCallStatuses: what a hot call makes of the answers a SOAP server should not give.
func TestHotCallStatuses(t *testing.T) {
	var answer struct {
		status      int
		contentType string
		body        string
	}
	s := startServer(t, serverOps{wrap: func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodPost {
				next.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Type", answer.contentType)
			w.Header().Set("Location", "/elsewhere")
			w.WriteHeader(answer.status)
			_, _ = io.WriteString(w, answer.body)
		})
	}})
	var trips bytes.Buffer
	if err := writeEnvelope(&trips, "getTripsResponse", sampleTrips()); err != nil {
		t.Fatal(err)
	}
	c := s.seller()
	for _, tc := range []struct {
		status      int
		contentType string
		body        string
		bad         bool   // ErrBadResponse
		message     string // in the error
	}{
		{http.StatusBadGateway, "text/plain", "upstream down", false, "HTTP status 502"},
		{http.StatusFound, "text/xml", trips.String(), false, "HTTP status 302"},
		{http.StatusInternalServerError, "text/xml", trips.String(), true, "HTTP status 500 with a response that is no fault"},
		{http.StatusInternalServerError, "text/xml", "<soap:Envelope>", true, "HTTP status 500"},
		{http.StatusOK, "text/xml", "not xml", true, "envelope"},
		{http.StatusOK, "text/xml", envelope(`<reserveResponse/>`), true, "got <reserveResponse>, want <getTripsResponse>"},
		{http.StatusNoContent, "", "", true, "EOF"},
	} {
		answer.status, answer.contentType, answer.body = tc.status, tc.contentType, tc.body
		resp, err := c.GetTrips(context.Background(), GetTripsRequest{Src: "TLV", Dst: "JFK", Date: "2026-12-01"})
		var f *Fault
		if err == nil || errors.As(err, &f) || errors.Is(err, ErrBadResponse) != tc.bad || !strings.Contains(err.Error(), tc.message) || resp != nil {
			t.Errorf("HTTP %d %q: %v; want an error containing %q (ErrBadResponse: %v)", tc.status, tc.body, err, tc.message, tc.bad)
		}
	}
}

// TestReadBody: a body is read whole up to the limit, whatever its Content-Length says.
func TestReadBody(t *testing.T) {
	for _, tc := range []struct {
		size, announced, limit int64
		tooLarge               bool
	}{
		{0, 0, 10, false}, {10, 10, 10, false}, {10, -1, 10, false}, {11, -1, 10, true}, {11, 11, 10, true},
		{100, 5, 1000, false}, {5, 100, 1000, false}, {300 << 10, -1, 1 << 20, false}, {300 << 10, 1 << 30, 1 << 40, false},
		{5 << 20, 5 << 20, 1 << 30, false}, {5 << 20, 20 << 20, 1 << 30, false}, {1 << 20, 20 << 20, 1 << 30, false},
	} {
		body := strings.Repeat("x", int(tc.size))
		p, err := readBody(io.NopCloser(strings.NewReader(body)), tc.limit, tc.announced)
		switch {
		case tc.tooLarge && !errors.Is(err, ErrResponseTooLarge):
			t.Errorf("%d bytes (announced %d) through a %d-byte cap: %v", tc.size, tc.announced, tc.limit, err)
		case !tc.tooLarge && (err != nil || string(*p) != body):
			t.Errorf("%d bytes (announced %d) through a %d-byte cap: error %v", tc.size, tc.announced, tc.limit, err)
		}
		if err == nil {
			bound := max(2*tc.size+1, 64<<10, min(tc.announced+1, maxPrealloc))
			if tc.size >= maxPrealloc { // it sent that much: taken at its word for the rest
				bound = max(bound, tc.announced+1)
			}
			if int64(cap(*p)) > bound {
				t.Errorf("%d bytes (announced %d): a buffer of %d", tc.size, tc.announced, cap(*p))
			}
			// A body beyond maxPrealloc that sends what it announced is read into one buffer of
			// its size, grown once (not by doubling); one that announced more than it sent never
			// gets more than maxPrealloc on its word alone.
			if tc.size > maxPrealloc && tc.announced == tc.size && int64(cap(*p)) != tc.size+1 {
				t.Errorf("%d bytes as announced: a buffer of %d, want %d", tc.size, cap(*p), tc.size+1)
			}
			if tc.size <= maxPrealloc && tc.announced > maxPrealloc && int64(cap(*p)) > maxPrealloc {
				t.Errorf("%d bytes, %d announced: a buffer of %d on the announcement's word", tc.size, tc.announced, cap(*p))
			}
			xmlcodec.PutBuffer(p)
		}
	}
}
