package integration

import (
	"crypto/tls"
	"net"
	"os"
	"strconv"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/tests/framework"
)

// TestRollingRestart upgrades an alliance as README says to: one machine at a time, SIGTERM (it
// hands its copies over, leaves etcd and exits 0), the same command line again (it joins back
// and is given copies) with its certificate renewed (a new key from the same CA, in the same
// files: it must serve the new one), and the next machine only once the alliance has settled.
// Every machine goes through it FA_ROLLS times (default 1), the delegate and the etcd leader
// among them, while searches go through the search server every 50 ms and 4 clients book, cancel
// and read seats. Nobody may see it: every search answer is complete and equal to the reference;
// every booking answer is one the contract allows, the history is linearizable per flight, and
// etcd's counters equal the live bookings; and the membership watch holds all along (no machine
// but the one restarting is ever removed, and every machine names the same delegate).
func TestRollingRestart(t *testing.T) {
	rolls := 1
	if v := os.Getenv("FA_ROLLS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("FA_ROLLS=%q: want a count of rolls, 1 or more", v)
		}
		rolls = n
	}
	var flights []flight.Flight
	w := newBookingWorld(t, map[string][]string{"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH"}}, allianceOpts{},
		fewSeats(&flights), "--registration-ttl", "10s")
	searches, bookings := w.startLoads(flights)
	for roll := range rolls {
		for _, n := range w.a.order {
			w.restartGracefully(t, n, roll)
		}
	}
	answers := searches.finish()
	bookings.finish(t, time.Minute)
	expectAllComplete(t, answers, rolls*len(w.a.order), "rolling restarts")
}

// expectAllComplete fails the test unless every search answer is complete and correct, and
// there were at least 20 of them for each of the events the searches went through.
func expectAllComplete(t *testing.T, answers []timedAnswer, events int, what string) {
	t.Helper()
	counts, p50, p99, bad := summarize(answers)
	t.Logf("%d searches during %s: %d complete and correct, %d incomplete, %d wrong, %d errors; p50 %v, p99 %v",
		len(answers), what, counts[answerComplete], counts[answerIncomplete], counts[answerWrong], counts[answerError],
		p50.Round(time.Millisecond), p99.Round(time.Millisecond))
	if counts[answerComplete] != len(answers) {
		t.Errorf("%s showed in searches; the first: %v", what, bad)
	}
	if len(answers) < 20*events {
		t.Errorf("only %d searches were answered during %d %s", len(answers), events, what)
	}
}

// restartGracefully is one step of a rolling restart: SIGTERM to machine n, its exit (0), a new
// certificate, the same command line again, and the alliance settled with n back in it.
func (w *bookingWorld) restartGracefully(t *testing.T, n string, roll int) {
	t.Helper()
	leader, _ := w.a.leaderAndSessions(10 * time.Second)
	role := ""
	if n == w.a.delegate() {
		role += " (the delegate)"
	}
	if n == leader {
		role += " (the etcd leader)"
	}
	m := w.a.machines[n]
	old := servedSerial(m.listen)
	if old == "" {
		t.Fatalf("roll %d: %s serves no certificate before its restart", roll+1, n)
	}
	start := time.Now()
	w.a.leave(n)
	if code := m.proc.Wait(45 * time.Second); code != 0 {
		t.Fatalf("roll %d: %s exited with %d after SIGTERM, want 0", roll+1, n, code)
	}
	left := time.Since(start)
	framework.IssueFiles(t, w.a.dir, n) // the restart renews its certificate
	w.a.restart(n)
	if err := waitBack(w.a, n, 60*time.Second); err != nil {
		t.Fatalf("roll %d: %s after its restart: %v", roll+1, n, err)
	}
	if renewed := servedSerial(m.listen); renewed == "" || renewed == old {
		t.Errorf("roll %d: %s serves certificate %q after a restart with a new one (the old one's serial: %s)", roll+1, n, renewed, old)
	}
	w.a.waitSettled(90 * time.Second)
	t.Logf("roll %d: %s%s left in %v, was back and settled %v later", roll+1, n, role,
		left.Round(time.Millisecond), (time.Since(start) - left).Round(time.Millisecond))
}

// servedSerial is the serial number of the certificate a TLS server at addr presents ("" when it
// cannot be reached: a stopped machine).
func servedSerial(addr string) string {
	conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", addr, framework.TesterTLS)
	if err != nil {
		return ""
	}
	defer conn.Close()
	return conn.ConnectionState().PeerCertificates[0].SerialNumber.String()
}
