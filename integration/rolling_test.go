package integration

import (
	"crypto/tls"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/internal/pki"
)

// TestRollingRestart is a maintenance day done as README says: three rolling restarts — one
// machine at a time, SIGTERM (it hands its copies over, leaves etcd and exits 0), the same
// command line again (it rejoins and is given copies), the next machine only once the alliance
// has settled — that renew every machine's certificate (a new key from the same CA, in the same
// files: it must serve the new one) and move the alliance to a new token: the search server first
// trusts both (a second line in its trust file, SIGHUP); the first roll gives the machines the
// token file "old, new" (each sends the old token and accepts both), the second "new, old", the
// third "new"; then the old line leaves the trust file (SIGHUP). Every machine is restarted three
// times, the delegate and the etcd leader among them, while searches go through the search server
// every 50 ms and 4 clients book, cancel and read seats.
//
// Nobody may see any of it: every search answer is complete and equal to the reference; every
// booking answer is one the contract allows, the history is linearizable per flight, and etcd's
// counters equal the live bookings; and the membership watch holds all along (no machine but
// the one restarting is ever removed, and every machine names the same delegate). At the end the
// old token opens nothing — every machine's IntraClusterService and the search server's
// registrations refuse it — and the delegate's registrations, with the new one, go on.
func TestRollingRestart(t *testing.T) {
	dir := t.TempDir()
	old, renewed := allianceTokens["star"], pki.Token()
	tokenFile, trustFile := filepath.Join(dir, "star.token"), filepath.Join(dir, "trust")
	writeSecret(t, tokenFile, old)
	writeSecret(t, trustFile, "star "+old)
	var flights []flight.Flight
	// The last --token-file and --trust on a command line are the ones in force.
	w := newBookingWorld(t, map[string][]string{"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH"}},
		allianceOpts{extra: []string{"--token-file", tokenFile}}, fewSeats(&flights),
		"--registration-ttl", "10s", "--trust", trustFile)
	for i := range flights {
		flights[i] = w.flight(flights[i])
	}
	w.waitBookable(flights[0], 90*time.Second)
	queries, want := w.a.readyQueries(w.base, 6)

	searches := startSteadyLoad(w.base, queries, want, 50*time.Millisecond)
	bookings := startBookingLoad(w, flights, 1, 4)
	w.reloadTrust(t, trustFile, "star "+old+"\nstar "+renewed, 1)
	for roll, tokens := range [][]string{{old, renewed}, {renewed, old}, {renewed}} {
		writeSecret(t, tokenFile, strings.Join(tokens, "\n"))
		for _, n := range w.a.order {
			w.restartGracefully(t, n, roll)
		}
	}
	inForce := w.reloadTrust(t, trustFile, "star "+renewed, 2)
	w.waitRegisteredAfter(t, inForce)
	answers := searches.finish()
	bookings.finish(t, time.Minute)

	counts, p50, p99, bad := summarize(answers)
	t.Logf("%d searches during the rolls: %d complete and correct, %d incomplete, %d wrong, %d errors; p50 %v, p99 %v",
		len(answers), counts[answerComplete], counts[answerIncomplete], counts[answerWrong], counts[answerError],
		p50.Round(time.Millisecond), p99.Round(time.Millisecond))
	if counts[answerComplete] != len(answers) {
		t.Errorf("a rolling restart showed in searches; the first: %v", bad)
	}
	if len(answers) < 20*3*len(w.a.order) {
		t.Errorf("only %d searches were answered during %d restarts", len(answers), 3*len(w.a.order))
	}
	w.onlyTokenOpens(t, renewed, old)
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
	if code := m.proc.wait(45 * time.Second); code != 0 {
		t.Fatalf("roll %d: %s exited with %d after SIGTERM, want 0", roll+1, n, code)
	}
	left := time.Since(start)
	issueFiles(t, w.a.dir, n) // the restart renews its certificate
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
	conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", addr, testerTLS)
	if err != nil {
		return ""
	}
	defer conn.Close()
	return conn.ConnectionState().PeerCertificates[0].SerialNumber.String()
}

// writeSecret writes content and a newline to file, mode 0600 (a token or trust file).
func writeSecret(t *testing.T, file, content string) {
	t.Helper()
	if err := pki.WriteSecret(file, []byte(content+"\n")); err != nil {
		t.Fatal(err)
	}
}
