package integration

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"flightalliance/internal/pki"
	"flightalliance/search"
	"flightalliance/soap"
	"flightalliance/tests/framework"
)

// reloadTrust writes the search server's trust file, sends it SIGHUP and waits until its log
// says it read the file again for the times-th time; it returns when the new trust is in force.
func (w *bookingWorld) reloadTrust(t *testing.T, file, content string, times int) time.Time {
	t.Helper()
	writeSecret(t, file, content)
	w.search.Signal(syscall.SIGHUP)
	waitLogTimes(t, w.search, "SIGHUP: trust file read again and in force", times)
	return time.Now()
}

// waitRegisteredAfter waits until the search server has accepted a registration of the alliance
// (its delegate's refresh) at or after since, and the alliance is not stale.
func (w *bookingWorld) waitRegisteredAfter(t *testing.T, since time.Time) {
	t.Helper()
	framework.Eventually(t, 30*time.Second, "a registration of "+w.a.name+" accepted after the trust file changed", func() error {
		regs, err := registrations(w.base)
		if err != nil {
			return err
		}
		for _, r := range regs {
			if r.Name == w.a.name && !r.Stale && !r.LastSeen.Before(since) {
				return nil
			}
		}
		return fmt.Errorf("registrations %+v", regs)
	})
}

// hangUp sends machine n SIGHUP and waits until its log says it read its token file again for
// the times-th time.
func (w *bookingWorld) hangUp(t *testing.T, n string, times int) {
	t.Helper()
	p := w.a.machines[n].proc
	p.Signal(syscall.SIGHUP)
	waitLogTimes(t, p, "SIGHUP: token file read again and in force", times)
}

// waitLogTimes waits (10 s at most) until p's log says s at least times times.
func waitLogTimes(t *testing.T, p *framework.Proc, s string, times int) {
	t.Helper()
	framework.Eventually(t, 10*time.Second, p.Name+" logged "+s, func() error {
		log, err := os.ReadFile(p.Log)
		if err != nil {
			return err
		}
		if n := strings.Count(string(log), s); n < times {
			return fmt.Errorf("its log says %q %d times, want %d", s, n, times)
		}
		return nil
	})
}

// askWith calls machine m's IntraClusterService with token: nil when it answered.
func askWith(m *machine, token string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := soap.NewIntraClient(m.url()+"/Services/IntraClusterService",
		soap.ClientOptions{Timeout: 10 * time.Second, HTTPClient: httpClient, Token: token})
	_, err := c.RelevantBySrc(ctx, soap.RelevantBySrcRequest{Src: "TLV", Date: testDate.String()})
	return err
}

// acceptEveryToken checks that every machine's IntraClusterService answers each of tokens.
func (w *bookingWorld) acceptEveryToken(t *testing.T, when string, tokens ...string) {
	t.Helper()
	for _, n := range w.a.order {
		for i, token := range tokens {
			if err := askWith(w.a.machines[n], token); err != nil {
				t.Errorf("%s: %s refuses the token sent by a machine (%d of %d): %v", when, n, i+1, len(tokens), err)
			}
		}
	}
}

// onlyTokenOpens checks that token opens every machine's IntraClusterService and old opens none
// (a Client fault, no data), and that the search server refuses a registration with old (403,
// nothing changed).
func (w *bookingWorld) onlyTokenOpens(t *testing.T, token, old string) {
	t.Helper()
	w.acceptEveryToken(t, "at the end", token)
	for _, n := range w.a.order {
		var f *soap.Fault
		if err := askWith(w.a.machines[n], old); !errors.As(err, &f) || f.Code != soap.CodeClient || !strings.Contains(f.String, "wrong token") {
			t.Errorf("%s with the old token: %v, want a Client fault (wrong token)", n, err)
		}
	}
	before, err := registrations(w.base)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPut, w.base+"/Services/FlightsSearchReg/Register/"+w.a.name,
		strings.NewReader(`{"uri":"https://127.0.0.1:9/Services/SellerService"}`))
	req.Header.Set("Authorization", "Bearer "+old)
	resp, err := httpClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("a registration with the old token: HTTP %d, want 403", resp.StatusCode)
	}
	after, err := registrations(w.base)
	if err != nil {
		t.Fatal(err)
	}
	if uris(before) != uris(after) {
		t.Errorf("a refused registration changed the registrations: %s, then %s", uris(before), uris(after))
	}
}

// uris names each registration's alliance and delegate.
func uris(regs []search.Registration) string {
	var parts []string
	for _, r := range regs {
		parts = append(parts, r.Name+"="+r.URI)
	}
	return strings.Join(parts, ",")
}

// writeSecret writes content and a newline to file, mode 0600 (a token or trust file).
func writeSecret(t *testing.T, file, content string) {
	t.Helper()
	if err := pki.WriteSecret(file, []byte(content+"\n")); err != nil {
		t.Fatal(err)
	}
}
