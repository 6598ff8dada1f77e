package search

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
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
	missing     []string // said with a NotModified (a delegate should not: its part is then not current)
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
		return &soap.GetTripsResponse{Alliance: d.resp.Alliance, Complete: len(d.missing) == 0, MissingSellers: d.missing, ETag: etag, NotModified: true}, nil
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

func newEtagServer(t *testing.T, d *etagDelegate, answerCache int64) *Server {
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

// TestAnIncompleteNotModifiedIsNotTrusted: the kept part was complete; a NotModified that says
// sellers are missing cannot mean it is current, and the kept trips are not sent as complete.
func TestAnIncompleteNotModifiedIsNotTrusted(t *testing.T) {
	d := &etagDelegate{}
	d.set(starTrips, "e1")
	s := newEtagServer(t, d, 0)
	s.searchBody(t, query)
	d.missing = []string{"UA"}
	code, body := s.searchBody(t, query)
	if code != http.StatusOK || !containsAll(body, `"complete":false`, "not complete") {
		t.Errorf("an incomplete NotModified: %d %s; want an incomplete answer naming it, never the kept trips as complete", code, body)
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

func TestWhenOneAllianceChangedTheOthersAreAskedInFull(t *testing.T) {
	star, sky := &etagDelegate{}, &etagDelegate{}
	star.set(starTrips, "s1")
	sky.set(skyTrips, "k1")
	dial := func(uri string) (Delegate, error) {
		if strings.Contains(uri, "sky") {
			return sky, nil
		}
		return star, nil
	}
	s, err := New(Config{Dial: dial})
	if err != nil {
		t.Fatal(err)
	}
	s.Registry().Register("star", "http://star.example/soap")
	s.Registry().Register("sky", "http://sky.example/soap")
	_, first := s.searchBody(t, query)
	changed := skyTrips
	changed.Trips = changed.Trips[:0] // sky's flight is gone
	sky.set(changed, "k2")
	_, second := s.searchBody(t, query)
	if second == first || strings.Contains(second, "AF300") || !strings.Contains(second, "LY001") {
		t.Errorf("after sky's answer changed, the search answered %s; want star's trips without AF300", second)
	}
	if got := star.asked; len(got) != 3 || got[1] != "s1" || got[2] != "" {
		t.Errorf("star was asked with IfNoneMatch %q; want \"\", s1 (NotModified), then in full", got)
	}
}

func TestKeptAnswersStayWithinTheirBudget(t *testing.T) {
	c := newConditional(250)
	for i := range 5 {
		c.keep(strconv.Itoa(i), keptAnswer{json: make([]byte, 100)})
	}
	if _, ok := c.kept("2"); ok || c.answers.Size() != 200 {
		t.Errorf("after five answers of 100 bytes in a 250-byte budget: %d bytes kept, the third still kept %v; want the last two", c.answers.Size(), ok)
	}
	if _, ok := c.kept("4"); !ok {
		t.Errorf("the newest answer was evicted")
	}
	c.keep("4", keptAnswer{json: make([]byte, 50)}) // replaced
	if c.answers.Size() != 150 {
		t.Errorf("after an answer of 100 bytes was replaced by one of 50: %d bytes, want 150", c.answers.Size())
	}
	c.keep("big", keptAnswer{json: make([]byte, 300)})
	if _, ok := c.kept("big"); ok || c.answers.Size() != 150 {
		t.Errorf("an answer larger than the budget was kept (size %d)", c.answers.Size())
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
