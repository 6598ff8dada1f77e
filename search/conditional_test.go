package search

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"flightalliance/soap"
)

// etagDelegate answers with its current trips and ETag, and NotModified, without trips, to a
// request naming the current ETag; lie makes it answer NotModified whatever was asked.
type etagDelegate struct {
	mu          sync.Mutex
	resp        soap.GetTripsResponse
	lie         bool
	asked       []string // the IfNoneMatch of every request
	notModified int
}

func (d *etagDelegate) set(resp soap.GetTripsResponse, etag string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.resp, d.resp.ETag = resp, etag
}

func (d *etagDelegate) GetTrips(_ context.Context, req soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.asked = append(d.asked, req.IfNoneMatch)
	if d.lie || (req.IfNoneMatch != "" && req.IfNoneMatch == d.resp.ETag) {
		d.notModified++
		etag := d.resp.ETag
		if d.lie {
			etag = "made-up"
		}
		return &soap.GetTripsResponse{Alliance: d.resp.Alliance, Complete: true, ETag: etag, NotModified: true}, nil
	}
	r := d.resp
	return &r, nil
}

func (s *Server) searchBody(t *testing.T, q string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	s.handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/Services/FlightsSearch/flight?"+q, nil))
	return rec.Code, rec.Body.String()
}

func newEtagServer(t *testing.T, d *etagDelegate, answerCache int) *Server {
	s, err := New(Config{Dial: func(string) (Delegate, error) { return d, nil }, AnswerCache: answerCache})
	if err != nil {
		t.Fatal(err)
	}
	s.Registry().Register("star", "http://star.example/soap")
	return s
}

func TestARepeatedSearchIsAskedConditionallyAndAnsweredFromItsCopy(t *testing.T) {
	d := &etagDelegate{}
	d.set(starTrips, "e1")
	s := newEtagServer(t, d, 0)
	code1, first := s.searchBody(t, query)
	code2, second := s.searchBody(t, query)
	if code1 != http.StatusOK || code2 != http.StatusOK || first != second {
		t.Fatalf("the same search twice: %d %d, answers equal %v", code1, code2, first == second)
	}
	if len(d.asked) != 2 || d.asked[0] != "" || d.asked[1] != "e1" || d.notModified != 1 {
		t.Errorf("the alliance was asked with IfNoneMatch %q and answered NotModified %d times; want \"\" then e1, once", d.asked, d.notModified)
	}
	// The alliance's answer changes (a booking, a new version): the next search shows it.
	d.set(skyTrips, "e2")
	_, third := s.searchBody(t, query)
	_, want := newEtagServer(t, d, -1).searchBody(t, query) // a server that keeps nothing
	if third != want || third == first {
		t.Errorf("after the alliance's answer changed, the search answered\n%s\nwant\n%s", third, want)
	}
}

func TestANotModifiedForAnotherETagIsNotTrusted(t *testing.T) {
	d := &etagDelegate{}
	d.set(starTrips, "e1")
	s := newEtagServer(t, d, 0)
	s.searchBody(t, query)
	d.set(skyTrips, "e2")
	d.lie = true // NotModified, naming an ETag this server never kept
	code, body := s.searchBody(t, query)
	if code != http.StatusOK || !containsAll(body, `"complete":false`, "NotModified") {
		t.Errorf("a NotModified for another ETag: %d %s; want an incomplete answer naming it, never the kept trips", code, body)
	}
}

func TestWithoutAnswerCacheNothingIsAskedConditionally(t *testing.T) {
	d := &etagDelegate{}
	d.set(starTrips, "e1")
	s := newEtagServer(t, d, -1)
	s.searchBody(t, query)
	s.searchBody(t, query)
	if d.asked[1] != "" {
		t.Errorf("with AnswerCache -1 the second search asked IfNoneMatch %q; want nothing kept", d.asked[1])
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
