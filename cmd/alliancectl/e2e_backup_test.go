package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// bookingAPI is the search server's REST bookings (docs/api.md, "Bookings"), as a client calls them.
type bookingAPI struct {
	base string
	c    *http.Client
}

// legRef names a flight to book.
type legRef struct {
	Seller string `json:"seller"`
	Flight string `json:"flight"`
}

// bookingDoc is the part of a booking the test compares.
type bookingDoc struct {
	ID     string `json:"id"`
	Seats  int    `json:"seats"`
	Status string `json:"status"`
	Legs   []struct {
		Flight string `json:"flight"`
		Seller string `json:"seller"`
	} `json:"legs"`
}

// call sends one request and returns the status and body (status 0: no answer).
func (b bookingAPI) call(ctx context.Context, method, path, key string, body any) (int, []byte) {
	var rd io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, b.base+path, rd)
	if err != nil {
		return 0, []byte(err.Error())
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	resp, err := b.c.Do(req)
	if err != nil {
		return 0, []byte(err.Error())
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, data
}

// book books seats on legs with key, retrying the same key until the answer is definite (not
// a 5xx or no answer: an outcome the same key settles); it returns the last answer.
func (b bookingAPI) book(ctx context.Context, key string, seats int, hold string, legs ...legRef) (int, bookingDoc, string) {
	req := map[string]any{"alliance": "star", "legs": legs, "seats": seats}
	if hold != "" {
		req["hold"] = hold
	}
	for {
		code, body := b.call(ctx, http.MethodPost, "/Services/FlightsSearch/bookings", key, req)
		if code != 0 && code < 500 || ctx.Err() != nil {
			var d bookingDoc
			_ = json.Unmarshal(body, &d)
			return code, d, string(body)
		}
		select {
		case <-ctx.Done():
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// seatsOf reads a flight's capacity, booked and left seats from the alliance's record.
func (b bookingAPI) seatsOf(ctx context.Context, f legRef) (capacity, booked, left int, err error) {
	code, body := b.call(ctx, http.MethodGet, "/Services/FlightsSearch/seats?alliance=star&seller="+f.Seller+"&flight="+f.Flight, "", nil)
	if code != http.StatusOK {
		return 0, 0, 0, fmt.Errorf("seats of %s: %d %s", f.Flight, code, body)
	}
	var s struct{ Capacity, Booked, Left int }
	err = json.Unmarshal(body, &s)
	return s.Capacity, s.Booked, s.Left, err
}

// smallFlight is the flight of seller's CSV with the fewest seats, at least min.
func smallFlight(t *testing.T, dataDir, seller string, min int) (legRef, int) {
	t.Helper()
	f, err := os.Open(filepath.Join(dataDir, seller+".csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	best, seats := legRef{}, 0
	for _, r := range recs[1:] {
		n, _ := strconv.Atoi(r[7])
		if n >= min && (seats == 0 || n < seats) {
			best, seats = legRef{Seller: r[1], Flight: r[0]}, n
		}
	}
	if seats == 0 {
		t.Fatalf("%s has no flight with %d seats", seller, min)
	}
	return best, seats
}

// An acknowledged booking survives the loss of every data dir: up, book, back up, down,
// delete the etcd data, restore each member from the snapshot, start the same command lines,
// and every booking is there with its seats and status, and the flight's last seats sell once.
func TestEndToEndBackupRestoreKeepsEveryBooking(t *testing.T) {
	bin := buildAll(t)
	dir, away := filepath.Join(t.TempDir(), "run"), t.TempDir()
	t.Cleanup(func() { killLeftovers(t, dir) })
	ctl(t, bin, dir, "up", "3", "--bin", bin, "--search", freePort(t), "--proxies=false", "--per-day", "5")
	s, c := runClient(t, dir, 10*time.Second)
	api := bookingAPI{base: s.Search, c: c}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()

	// Bookings on flights of sellers held by each machine: confirmed, cancelled, held.
	dataDir := filepath.Join(dir, "data")
	small, capacity := smallFlight(t, dataDir, "LY", 8)
	lh, _ := smallFlight(t, dataDir, "LH", 4)
	nh, _ := smallFlight(t, dataDir, "NH", 4)
	type made struct {
		key    string
		doc    bookingDoc
		seats  int
		hold   string
		legs   []legRef
		status string
	}
	plan := []made{
		{key: "b-confirmed", seats: 3, legs: []legRef{small}, status: "confirmed"},
		{key: "b-cancelled", seats: 2, legs: []legRef{small}, status: "cancelled"},
		{key: "b-held", seats: 1, hold: "10m", legs: []legRef{small}, status: "held"},
		{key: "b-lh", seats: 2, legs: []legRef{lh}, status: "confirmed"},
		{key: "b-nh", seats: 4, legs: []legRef{nh}, status: "confirmed"},
	}
	for i := range plan {
		p := &plan[i]
		code, doc, body := api.book(ctx, p.key, p.seats, p.hold, p.legs...)
		if code != http.StatusCreated {
			t.Fatalf("booking %s: %d %s", p.key, code, body)
		}
		p.doc = doc
		if p.status == "cancelled" {
			if code, body := api.call(ctx, http.MethodDelete, "/Services/FlightsSearch/bookings/"+doc.ID, "", nil); code != http.StatusOK {
				t.Fatalf("cancelling %s: %d %s", doc.ID, code, body)
			}
		}
	}
	booked := 3 + 1 // on the small flight: the confirmed and the held booking

	// Back up from a directory that started nothing, through the machines' etcd.
	var endpoints []string
	for _, m := range s.machines("star") {
		endpoints = append(endpoints, "https://"+m.Ports.Client)
	}
	snap := filepath.Join(away, "star.db")
	out, code := ctlFrom(t, bin, away, "backup", "--out", snap, "--endpoints="+strings.Join(endpoints, ","), "--keys="+s.Keys)
	if code != exitOK || !strings.Contains(out, "bookings: 5 (star: 1 cancelled, 3 confirmed, 1 held)") ||
		!strings.Contains(out, "verified: etcd's sha256 of the database, and bbolt's consistency check") {
		t.Fatalf("backup: exit %d", code)
	}

	// Everything goes: the processes and every member's data.
	state, err := os.ReadFile(filepath.Join(dir, stateFile))
	if err != nil {
		t.Fatal(err)
	}
	procs := recordedPids(t, dir)
	ctl(t, bin, dir, "down")
	assertAllGone(t, procs)
	if err := os.RemoveAll(filepath.Join(dir, "etcd")); err != nil {
		t.Fatal(err)
	}

	// Restore each bootstrap member into a fresh data dir, where its command line has it.
	peers := s.Alliances[0].Peers
	for _, m := range s.machines("star") {
		out, code := ctlFrom(t, bin, away, "restore", "--snapshot", snap, "--name", m.Name,
			"--data-dir", filepath.Join(dir, "etcd", m.Name), "--peers", peers)
		if code != exitOK || !strings.Contains(out, "restored member "+m.Name+" of star") {
			t.Fatalf("restore %s: exit %d", m.Name, code)
		}
	}
	out, code = ctlFrom(t, bin, away, "restore", "--snapshot", snap, "--name", "m1", "--data-dir", filepath.Join(dir, "etcd", "m1"), "--peers", peers)
	if code != exitUsage || !strings.Contains(out, "--data-dir: "+filepath.Join(dir, "etcd", "m1")+" is not empty") {
		t.Errorf("a restore over a member's data: exit %d, want %d naming --data-dir", code, exitUsage)
	}

	// The same command lines again (state.json as up wrote it: down removes it).
	if err := os.WriteFile(filepath.Join(dir, stateFile), state, 0o644); err != nil {
		t.Fatal(err)
	}
	ctl(t, bin, dir, "restart", searchName)
	var wg sync.WaitGroup
	failures := make(chan string, 3)
	for _, m := range s.machines("star") {
		wg.Go(func() { // together: none is ready before a quorum of them runs
			if out, code := ctlCode(t, bin, dir, "restart", m.Name); code != exitOK {
				failures <- fmt.Sprintf("restart %s: exit %d\n%s", m.Name, code, out)
			}
		})
	}
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Fatal(f)
	}

	// Every acknowledged booking is there, with its seats and status.
	for _, p := range plan {
		var got bookingDoc
		for {
			code, body := api.call(ctx, http.MethodGet, "/Services/FlightsSearch/bookings/"+p.doc.ID, "", nil)
			if code == http.StatusOK {
				if err := json.Unmarshal(body, &got); err != nil {
					t.Fatal(err)
				}
				break
			}
			if ctx.Err() != nil {
				t.Fatalf("booking %s after the restore: %d %s", p.doc.ID, code, body)
			}
			time.Sleep(200 * time.Millisecond)
		}
		var flights []string
		for _, l := range got.Legs {
			flights = append(flights, l.Seller+":"+l.Flight)
		}
		var want []string
		for _, l := range p.legs {
			want = append(want, l.Seller+":"+l.Flight)
		}
		if got.ID != p.doc.ID || got.Seats != p.seats || got.Status != p.status || !slices.Equal(flights, want) {
			t.Errorf("booking %s after the restore: %+v, want %d seats %s on %v", p.doc.ID, got, p.seats, p.status, want)
		}
	}
	if c, b, left, err := api.seatsOf(ctx, small); err != nil || c != capacity || b != booked || left != capacity-booked {
		t.Fatalf("seats of %s after the restore: capacity %d booked %d left %d (%v), want %d booked of %d", small.Flight, c, b, left, err, booked, capacity)
	}
	// The idempotency records came back too: the same key answers the same booking.
	if code, doc, body := api.book(ctx, "b-confirmed", 3, "", small); code != http.StatusOK || doc.ID != plan[0].doc.ID {
		t.Errorf("the first booking's key again: %d %s, want 200 with %s", code, body, plan[0].doc.ID)
	}

	// The remaining seats sell once, however many ask at once; the held seat stays held.
	left := capacity - booked
	askers := left + 3
	codes := make(chan int, askers)
	for i := range askers {
		wg.Go(func() {
			code, _, _ := api.book(ctx, fmt.Sprintf("after-restore-%d", i), 1, "", small)
			codes <- code
		})
	}
	wg.Wait()
	close(codes)
	count := map[int]int{}
	for code := range codes {
		count[code]++
	}
	if count[http.StatusCreated] != left || count[http.StatusConflict] != askers-left {
		t.Errorf("%d one-seat bookings for %d seats left: %v (status → count), want %d created and %d conflicts",
			askers, left, count, left, askers-left)
	}
	if c, b, l, err := api.seatsOf(ctx, small); err != nil || b != c || l != 0 {
		t.Errorf("seats of %s after selling out: capacity %d booked %d left %d (%v)", small.Flight, c, b, l, err)
	}
	if code, body := api.call(ctx, http.MethodPost, "/Services/FlightsSearch/bookings/"+plan[2].doc.ID+"/confirm", "", nil); code != http.StatusOK ||
		!strings.Contains(string(body), `"status":"confirmed"`) {
		t.Errorf("confirming the restored hold: %d %s", code, body)
	}

	procs = recordedPids(t, dir)
	ctl(t, bin, dir, "down")
	assertAllGone(t, procs)
}
