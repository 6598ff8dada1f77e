package integration

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"flightalliance/alliance/flight"
	"flightalliance/tests/framework"
)

// bookingWorld is an alliance of real airline servers behind a real search server, some of whose
// flights have few seats, and a client of the search server's booking API.
type bookingWorld struct {
	t      testing.TB
	a      *testAlliance
	base   string
	search *framework.Proc // the search server's process
	api    bookingAPI
}

// newBookingWorld starts a search server and an alliance registered with it. Before the machines
// start, seats picks the flights whose seats for sale it changes (from the generated data).
func newBookingWorld(t testing.TB, sellersOf map[string][]string, opts allianceOpts,
	seats func(data map[string][]flight.Flight) map[flight.Key]int, searchArgs ...string) *bookingWorld {
	t.Helper()
	base, search := framework.StartSearch(t, t.TempDir(), searchArgs...)
	opts.search = append(opts.search, base)
	a := prepareAlliance(t, "star", sellersOf, opts)
	if seats != nil {
		a.withSeats(seats(a.data))
	}
	for _, n := range a.order {
		a.start(n)
	}
	return &bookingWorld{t: t, a: a, base: base, search: search, api: newBookingAPI(base)}
}

// waitBookable waits until the placement settled and the search server answers a linearizable
// seat read for f: the alliance is registered and its delegate can reach etcd.
func (w *bookingWorld) waitBookable(f flight.Flight, timeout time.Duration) {
	w.t.Helper()
	w.a.waitSettled(timeout)
	framework.Eventually(w.t, timeout, "the search server reads seats from the alliance", func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s, ans := w.api.seats(ctx, w.a.name, refOf(f))
		if ans.err != nil || ans.status != http.StatusOK {
			return fmt.Errorf("seats: %v", ans)
		}
		if s.Capacity != f.Seats {
			w.t.Fatalf("seats of %s %s: capacity %d, the file says %d", f.Seller, f.Number, s.Capacity, f.Seats)
		}
		return nil
	})
}

// flight returns the alliance's current data for a flight (its seats as changed by withSeats).
func (w *bookingWorld) flight(f flight.Flight) flight.Flight {
	for _, g := range w.a.data[f.Seller] {
		if g.Key() == f.Key() {
			return g
		}
	}
	w.t.Fatalf("no flight %v", f.Key())
	return flight.Flight{}
}

// mustBook books and expects a new booking (201), retrying the same key while the outcome is
// unknown (up to timeout).
func (w *bookingWorld) mustBook(key string, req bookRequest, timeout time.Duration) bookingJSON {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	ans := w.api.bookUntilDefinite(ctx, key, req)
	if ans.err != nil || (ans.status != http.StatusCreated && ans.status != http.StatusOK) {
		w.t.Fatalf("book %+v with key %s: %v", req, key, ans)
	}
	b, err := ans.booking()
	if err != nil {
		w.t.Fatal(err)
	}
	if !bookingIDPattern(w.a.name).MatchString(b.ID) {
		w.t.Fatalf("booking id %q is not %s.<26 base32 characters>", b.ID, w.a.name)
	}
	return b
}

// mustCancel cancels a booking and expects it cancelled.
func (w *bookingWorld) mustCancel(id string) bookingJSON {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var ans restAnswer
	for ans = w.api.cancel(ctx, id); !ans.definite() && ctx.Err() == nil; ans = w.api.cancel(ctx, id) {
		time.Sleep(200 * time.Millisecond)
	}
	b, err := ans.booking()
	if err != nil || ans.status != http.StatusOK || b.Status != "cancelled" {
		w.t.Fatalf("cancel %s: %v", id, ans)
	}
	return b
}

// waitExpired waits until the hold id reads expired (15 s at most), and returns how long that took.
func (w *bookingWorld) waitExpired(t testing.TB, id string) time.Duration {
	t.Helper()
	return framework.Eventually(t, 15*time.Second, "the hold "+id+" expired", func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		b, err := w.api.get(ctx, id).booking()
		if err != nil {
			return err
		}
		if b.Status != "expired" {
			return fmt.Errorf("status %q", b.Status)
		}
		return nil
	})
}

// booked is the seats booked on f, read through the search server.
func (w *bookingWorld) booked(f flight.Flight) int {
	w.t.Helper()
	return w.api.mustSeats(w.t, w.a.name, refOf(f)).Booked
}

// etcdCount counts the keys under the alliance's prefix dir ("bookings", "holds", …).
func (w *bookingWorld) etcdCount(dir string) int64 {
	w.t.Helper()
	cli := w.a.etcd()
	defer cli.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := cli.Get(ctx, "/alliances/"+w.a.name+"/"+dir+"/", clientv3.WithPrefix(), clientv3.WithCountOnly())
	if err != nil {
		w.t.Fatalf("counting %s in etcd: %v", dir, err)
	}
	return resp.Count
}

// etcdValue reads one key of the alliance's tree ("" when absent).
func (w *bookingWorld) etcdValue(key string) string {
	w.t.Helper()
	cli := w.a.etcd()
	defer cli.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := cli.Get(ctx, "/alliances/"+w.a.name+"/"+key)
	if err != nil {
		w.t.Fatalf("reading %s from etcd: %v", key, err)
	}
	if len(resp.Kvs) == 0 {
		return ""
	}
	return string(resp.Kvs[0].Value)
}

// etcdBooked is a flight's booked-seats counter in etcd (0 when absent).
func (w *bookingWorld) etcdBooked(f flight.Flight) int {
	w.t.Helper()
	v := w.etcdValue("seats/" + f.Seller + "/" + f.Number)
	if v == "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		w.t.Fatalf("seats counter of %s %s is %q", f.Seller, f.Number, v)
	}
	return n
}

// waitSearchSeats waits until a search shows want seats left on f, and returns how long it took.
func (w *bookingWorld) waitSearchSeats(f flight.Flight, want int, timeout time.Duration) time.Duration {
	w.t.Helper()
	return framework.Eventually(w.t, timeout, fmt.Sprintf("a search shows %d seats left on %s", want, f.Number), func() error {
		got, err := searchSeats(w.base, f)
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("search shows %d seats left on %s, want %d", got, f.Number, want)
		}
		return nil
	})
}

func oneLeg(f flight.Flight, seats int) bookRequest {
	return bookRequest{Alliance: "star", Legs: []legRef{refOf(f)}, Seats: seats}
}
