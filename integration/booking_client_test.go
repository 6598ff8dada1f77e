package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/search"
)

// The REST booking API of the search server (API.md, "Bookings"), as a client sees it.

// legRef names a flight to book.
type legRef struct {
	Seller string `json:"seller"`
	Flight string `json:"flight"`
}

func refOf(f flight.Flight) legRef { return legRef{Seller: f.Seller, Flight: f.Number} }

// bookRequest is the body of POST /Services/FlightsSearch/bookings.
type bookRequest struct {
	Alliance string   `json:"alliance"`
	Legs     []legRef `json:"legs"`
	Seats    int      `json:"seats"`
	Hold     string   `json:"hold,omitempty"`
}

// bookingJSON is a booking as the search server answers it.
type bookingJSON struct {
	ID        string       `json:"id"`
	Alliance  string       `json:"alliance"`
	Legs      []search.Leg `json:"legs"`
	Seats     int          `json:"seats"`
	Price     string       `json:"price"`
	Status    string       `json:"status"`
	CreatedAt string       `json:"created_at"`
	ExpiresAt string       `json:"expires_at"`
}

// seatsJSON is the answer of GET /Services/FlightsSearch/seats: a linearizable read.
type seatsJSON struct {
	Capacity int `json:"capacity"`
	Booked   int `json:"booked"`
	Left     int `json:"left"`
}

// restAnswer is one HTTP exchange: the status and body, or err when no answer came.
type restAnswer struct {
	status int
	body   []byte
	err    error
}

func (r restAnswer) String() string {
	if r.err != nil {
		return "no answer: " + r.err.Error()
	}
	return fmt.Sprintf("%d %s", r.status, bytes.TrimSpace(r.body))
}

// booking decodes the answer as a booking.
func (r restAnswer) booking() (bookingJSON, error) {
	var b bookingJSON
	if r.err != nil {
		return b, r.err
	}
	if err := json.Unmarshal(r.body, &b); err != nil {
		return b, fmt.Errorf("%v: not a booking: %w", r, err)
	}
	return b, nil
}

// message is the "error" of an error answer.
func (r restAnswer) message() string {
	var e search.ErrorBody
	_ = json.Unmarshal(r.body, &e)
	return e.Error
}

// definite reports whether the answer settles the request's outcome; anything else (no answer,
// 5xx) leaves it unknown and is retried with the same key.
func (r restAnswer) definite() bool { return r.err == nil && r.status < 500 }

// bookingAPI calls the search server's booking endpoints.
type bookingAPI struct {
	base   string
	client *http.Client
}

func newBookingAPI(base string) bookingAPI {
	return bookingAPI{base: base, client: &http.Client{Timeout: 10 * time.Second, Transport: testerTransport()}}
}

func (c bookingAPI) do(ctx context.Context, method, path string, header http.Header, body []byte) restAnswer {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(body))
	if err != nil {
		return restAnswer{err: err}
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return restAnswer{err: err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return restAnswer{err: err}
	}
	return restAnswer{status: resp.StatusCode, body: b}
}

// book posts a booking with the idempotency key (none when key is "").
func (c bookingAPI) book(ctx context.Context, key string, req bookRequest) restAnswer {
	body, _ := json.Marshal(req)
	return c.bookRaw(ctx, key, body)
}

func (c bookingAPI) bookRaw(ctx context.Context, key string, body []byte) restAnswer {
	h := http.Header{}
	if key != "" {
		h.Set("Idempotency-Key", key)
	}
	return c.do(ctx, http.MethodPost, "/Services/FlightsSearch/bookings", h, body)
}

func (c bookingAPI) get(ctx context.Context, id string) restAnswer {
	return c.do(ctx, http.MethodGet, "/Services/FlightsSearch/bookings/"+url.PathEscape(id), nil, nil)
}

func (c bookingAPI) cancel(ctx context.Context, id string) restAnswer {
	return c.do(ctx, http.MethodDelete, "/Services/FlightsSearch/bookings/"+url.PathEscape(id), nil, nil)
}

func (c bookingAPI) confirm(ctx context.Context, id string) restAnswer {
	return c.do(ctx, http.MethodPost, "/Services/FlightsSearch/bookings/"+url.PathEscape(id)+"/confirm", nil, nil)
}

// seats reads a flight's seats from the alliance's system of record.
func (c bookingAPI) seats(ctx context.Context, alliance string, f legRef) (seatsJSON, restAnswer) {
	q := url.Values{"alliance": {alliance}, "seller": {f.Seller}, "flight": {f.Flight}}
	ans := c.do(ctx, http.MethodGet, "/Services/FlightsSearch/seats?"+q.Encode(), nil, nil)
	var s seatsJSON
	if ans.err == nil && ans.status == http.StatusOK {
		if err := json.Unmarshal(ans.body, &s); err != nil {
			ans.err = fmt.Errorf("seats answer %q: %w", ans.body, err)
		}
	}
	return s, ans
}

// newKey is a fresh idempotency key.
func newKey(prefix string) string {
	return fmt.Sprintf("%s-%d-%016x", prefix, time.Now().UnixNano(), rand.Uint64())
}

// bookingID is the form of a booking ID: "<alliance>.<26 base32 characters>".
func bookingIDPattern(alliance string) *regexp.Regexp {
	return regexp.MustCompile(`^` + regexp.QuoteMeta(alliance) + `\.[a-z2-7]{26}$`)
}

// bookUntilDefinite books with one key, retrying the same key until an answer settles it or
// ctx ends; it returns the last answer.
func (c bookingAPI) bookUntilDefinite(ctx context.Context, key string, req bookRequest) restAnswer {
	for {
		ans := c.book(ctx, key, req)
		if ans.definite() || ctx.Err() != nil {
			return ans
		}
		select {
		case <-ctx.Done():
			return ans
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// mustSeats reads a flight's seats and fails the test on any error.
func (c bookingAPI) mustSeats(t testing.TB, alliance string, f legRef) seatsJSON {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, ans := c.seats(ctx, alliance, f)
	if ans.err != nil || ans.status != http.StatusOK {
		t.Fatalf("seats of %s/%s: %v", f.Seller, f.Flight, ans)
	}
	return s
}

// searchSeats is the seats a search shows for flight f, which departs from src on the test date.
func searchSeats(base string, f flight.Flight) (int, error) {
	var ans search.Answer
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	q := query{src: f.Src, dst: f.Dst, date: flight.DateOf(f.Departure), sellers: []string{f.Seller}}
	if err := getJSON(ctx, searchURL(base, q), &ans); err != nil {
		return 0, err
	}
	for _, trip := range ans.Trips {
		if l := trip.Legs[0]; len(trip.Legs) == 1 && l.Seller == f.Seller && l.Flight == f.Number {
			return l.Seats, nil
		}
	}
	return 0, fmt.Errorf("no trip of %s %s in %d trips", f.Seller, f.Number, len(ans.Trips))
}

// withSeats sets the seats for sale of the given flights in the alliance's data and rewrites
// the sellers' files; call it before the machines start.
func (a *testAlliance) withSeats(seats map[flight.Key]int) {
	a.t.Helper()
	changed := map[string]bool{}
	for s, flights := range a.data {
		for i := range flights {
			if n, ok := seats[flights[i].Key()]; ok {
				flights[i].Seats = n
				changed[s] = true
			}
		}
	}
	for s := range changed {
		var buf bytes.Buffer
		if err := flight.WriteCSV(&buf, a.data[s]); err != nil {
			a.t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(a.dir, "data", s+".csv"), buf.Bytes(), 0o644); err != nil {
			a.t.Fatal(err)
		}
	}
}

// directFlights returns n flights of the seller on the test date, each the only flight of its
// seller between its airports that day (so a nonstop search filtered by the seller finds it).
func directFlights(data map[string][]flight.Flight, seller string, n int) []flight.Flight {
	pairs := map[[2]string]int{}
	for _, f := range data[seller] {
		if flight.DateOf(f.Departure) == testDate {
			pairs[[2]string{f.Src, f.Dst}]++
		}
	}
	var out []flight.Flight
	for _, f := range data[seller] {
		if flight.DateOf(f.Departure) == testDate && pairs[[2]string{f.Src, f.Dst}] == 1 && len(out) < n {
			out = append(out, f)
		}
	}
	return out
}

// connection finds two flights of different sellers that make a trip (API.md, "Trips") and
// are not in avoid.
func connection(data map[string][]flight.Flight, s1, s2 string, avoid []flight.Flight) (flight.Flight, flight.Flight, bool) {
	for _, f1 := range data[s1] {
		if flight.DateOf(f1.Departure) != testDate || slices.Contains(avoid, f1) {
			continue
		}
		for _, f2 := range data[s2] {
			if f2.Src == f1.Dst && f2.Dst != f1.Src && flight.DateOf(f2.Departure) == testDate &&
				!f2.Departure.Before(f1.Arrival.Add(30*time.Minute)) && !slices.Contains(avoid, f2) {
				return f1, f2, true
			}
		}
	}
	return flight.Flight{}, flight.Flight{}, false
}

// mentions reports whether the answer's error message names every word.
func mentions(ans restAnswer, words ...string) bool {
	msg := strings.ToLower(ans.message())
	for _, w := range words {
		if !strings.Contains(msg, strings.ToLower(w)) {
			return false
		}
	}
	return true
}
