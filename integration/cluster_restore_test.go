package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/tests/framework/membership"
)

// backupRestore backs the running alliance up with `alliancectl backup` from a container on its
// network, destroys every machine's container and volume, restores each bootstrap member's volume
// with `alliancectl restore` and starts the machines again: every booking the clients hold is back
// as it was (its seats and status), every flight's seat count too, and a flight's last seats sell
// once. It returns how long the machines took to be back after their start.
func (c *cluster) backupRestore(t *testing.T, api bookingAPI, held map[flight.Key][]string, flights []flight.Flight) time.Duration {
	t.Helper()
	var ids []string
	for _, f := range flights {
		ids = append(ids, held[f.Key()]...)
	}
	if len(ids) == 0 {
		t.Fatal("no booking held before the backup: the restore would have nothing to prove")
	}
	before := readBookings(t, api, ids)
	seats := map[string]int{}
	for _, f := range flights {
		seats[flightName(f)] = api.mustSeats(t, "star", refOf(f)).Booked
	}
	backups := filepath.Join(c.dir, "backups")
	if err := os.MkdirAll(backups, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := execCombinedOut("chown", "65532:65532", backups); err != nil {
		t.Fatalf("chown: %v\n%s", err, out)
	}
	kit := filepath.Join(c.dir, "keys", "hosts", "alliancectl")
	out := dockerCombined(t, "run", "--rm", "--network", c.network(), "-v", kit+":/keys:ro", "-v", backups+":/backups",
		c.image, "alliancectl", "backup", "--endpoints", "https://m1:2379,https://m2:2379,https://m3:2379",
		"--keys", "/keys", "--out", "/backups/star.db")
	t.Logf("alliancectl backup:\n%s", out)

	names := c.machineNames()
	for _, n := range names {
		c.watch.Set(n, membership.Faulted)
		c.machine(n).setUp(false)
	}
	c.compose(append([]string{"--profile", "spare", "rm", "--stop", "--force", "-v"}, names...)...)
	for _, n := range names {
		docker(t, "volume", "rm", c.project+"_"+n)
	}
	t.Logf("every machine's container and volume destroyed: %v", names)

	peers := "m1=https://m1:2380,m2=https://m2:2380,m3=https://m3:2380"
	for _, n := range []string{"m1", "m2", "m3"} {
		// A new volume of the name Compose gives it, filled from the image (machine/, its user's).
		out := dockerCombined(t, "run", "--rm", "-v", c.project+"_"+n+":/var/lib/flightalliance", "-v", backups+":/backups:ro",
			c.image, "alliancectl", "restore", "--snapshot", "/backups/star.db", "--name", n,
			"--data-dir", "/var/lib/flightalliance/machine/etcd", "--peers", peers)
		t.Logf("alliancectl restore %s:\n%s", n, lastLines([]byte(out), 3))
	}
	c.compose(append([]string{"--profile", "spare", "up", "-d", "--no-color"}, names...)...)
	started := time.Now()
	for _, n := range names {
		c.started(c.machine(n), c.containerOf(n), true)
	}
	back := c.waitBack(2*time.Minute, names...)
	c.waitBookable(&bookingWorld{t: t, api: api}, flights[0], 2*time.Minute)
	t.Logf("the restored alliance is back %v after its start", time.Since(started).Round(100*time.Millisecond))

	after := readBookings(t, api, ids)
	for _, id := range ids {
		if before[id] != after[id] {
			t.Errorf("booking %s was %s before the backup, %s after the restore", id, before[id], after[id])
		}
	}
	for _, f := range flights {
		if got := api.mustSeats(t, "star", refOf(f)).Booked; got != seats[flightName(f)] {
			t.Errorf("%s: %d seats booked before the backup, %d after the restore", flightName(f), seats[flightName(f)], got)
		}
	}
	t.Logf("%d bookings read back after the restore, each as before; %d flights' seat counts as before", len(ids), len(flights))
	sellsOnce(t, api, flights, held)
	return back
}

// dockerCombined runs a docker command and returns what it printed on both streams (alliancectl
// in a container reports on stderr).
func dockerCombined(t testing.TB, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "docker", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("docker %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (c *cluster) machineNames() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var names []string
	for n := range c.machines {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// readBookings reads each booking through the search server: "status seats", or what failed.
func readBookings(t *testing.T, api bookingAPI, ids []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, id := range ids {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		ans := api.get(ctx, id)
		cancel()
		var b bookingJSON
		if ans.err != nil || ans.status != http.StatusOK || json.Unmarshal(ans.body, &b) != nil {
			out[id] = fmt.Sprintf("unreadable (%v)", ans)
			continue
		}
		out[id] = fmt.Sprintf("%s %d seats", b.Status, b.Seats)
	}
	return out
}

// sellsOnce books the remaining seats of the flight with most left (a booking of it cancelled
// first when it has none), one a request, three requests more than there are seats, all at once:
// exactly as many succeed as there were seats left.
func sellsOnce(t *testing.T, api bookingAPI, flights []flight.Flight, held map[flight.Key][]string) {
	t.Helper()
	f, left := flights[0], -1
	for _, g := range flights {
		if l := g.Seats - api.mustSeats(t, "star", refOf(g)).Booked; l > left {
			f, left = g, l
		}
	}
	if left == 0 && len(held[f.Key()]) > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		ans := cancelUntilDefinite(ctx, api, held[f.Key()][0])
		cancel()
		if ans.status != http.StatusOK {
			t.Fatalf("cancelling %s after the restore: %v", held[f.Key()][0], ans)
		}
		left = f.Seats - api.mustSeats(t, "star", refOf(f)).Booked
	}
	if left == 0 {
		t.Fatalf("no seat of %v left to sell after the restore", flights)
	}
	var mu sync.Mutex
	var ok, conflict int
	var others []string
	var wg sync.WaitGroup
	for i := range left + 3 {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			ans := api.bookUntilDefinite(ctx, fmt.Sprintf("restore-last-seat-%d-%d", time.Now().UnixNano(), i),
				bookRequest{Alliance: "star", Legs: []legRef{refOf(f)}, Seats: 1})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case ans.status == http.StatusCreated || ans.status == http.StatusOK:
				ok++
			case ans.status == http.StatusConflict:
				conflict++
			default:
				others = append(others, fmt.Sprint(ans))
			}
		})
	}
	wg.Wait()
	if ok != left || len(others) > 0 {
		t.Errorf("%s had %d seats left after the restore: %d one-seat bookings succeeded, %d conflicted, others: %s",
			flightName(f), left, ok, conflict, strings.Join(others, "; "))
	}
	t.Logf("%s's last %d seats sold once: %d of %d bookings succeeded, %d refused", flightName(f), left, ok, left+3, conflict)
}
