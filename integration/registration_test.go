package integration

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"flightalliance/search"
	"flightalliance/tests/framework"
)

// TestAMistakenRegistrationCostsNoAnswer: a machine of the alliance replaces the delegate's
// registration (as one does that registers on a view of the alliance that lags: it names no
// alternates), again and again for three seconds, and is silent. Under steady searches, every
// answer stays complete: the search server asks the delegate it replaced, after the silent one,
// until the delegate registers again (within its 3 s refresh).
func TestAMistakenRegistrationCostsNoAnswer(t *testing.T) {
	dir := t.TempDir()
	base, _ := framework.StartSearch(t, dir)
	a := newProxiedAlliance(t, "star", map[string][]string{"m1": {"LY"}, "m2": {"UA", "LH"}, "m3": {"AF"}}, nil, base)
	a.waitSettled(90 * time.Second)
	queries, want := a.readyQueries(base, 3)
	var delegate search.Registration
	framework.Eventually(t, 30*time.Second, "the delegate's registration naming the others", func() error {
		regs, err := registrations(base)
		if err != nil || len(regs) != 1 || len(regs[0].Alternates) != 2 {
			return fmt.Errorf("registrations %+v (%v)", regs, err)
		}
		delegate = regs[0]
		return nil
	})
	silent := delegate.Alternates[len(delegate.Alternates)-1]
	name := a.machineAt(silent)
	a.cutOff(name, "soap") // its SOAP port takes calls and answers none; it stays a member
	viaOthers := metricSum(t, base+"/metrics", "search_alternate_calls_total")

	load := startSteadyLoad(base, queries, want, 100*time.Millisecond)
	refresh := time.NewTicker(300 * time.Millisecond) // a machine refreshing its registration, faster than the delegate
	defer refresh.Stop()
	for end := time.Now().Add(3 * time.Second); time.Now().Before(end); <-refresh.C {
		mistaken := a.registerAs(base, silent)
		if mistaken.URI != silent || len(mistaken.Alternates) != 0 ||
			!slices.ContainsFunc(mistaken.Previous, func(f search.Fallback) bool { return f.URI == delegate.URI }) {
			t.Fatalf("the mistaken registration is %+v: want %s, no alternates, the delegate %s as a fallback", mistaken, silent, delegate.URI)
		}
	}
	framework.Eventually(t, 30*time.Second, "the delegate registering again", func() error {
		regs, err := registrations(base)
		if err != nil || len(regs) != 1 || regs[0].URI != delegate.URI {
			return fmt.Errorf("registrations %+v (%v)", regs, err)
		}
		return nil
	})
	answers := load.finish()
	counts, _, _, bad := summarize(answers)
	fallbackCalls := metricSum(t, base+"/metrics", "search_alternate_calls_total") - viaOthers
	t.Logf("%d searches while %s (%s) registered itself and was silent: %d complete; %v calls past the silent one",
		len(answers), silent, name, counts[answerComplete], fallbackCalls)
	if len(answers) == 0 || counts[answerComplete] != len(answers) {
		t.Errorf("not every answer complete and correct: %v", bad)
	}
	if fallbackCalls < 5 {
		t.Errorf("%v calls went past the silent machine: the searches did not meet the mistaken registration", fallbackCalls)
	}
	a.heal(name)
}

// machineAt names the machine whose SellerService is at uri (its advertised address).
func (a *testAlliance) machineAt(uri string) string {
	a.t.Helper()
	for _, n := range a.order {
		m := a.machines[n]
		if m.scheme+m.soapProxy+"/Services/SellerService" == uri || m.url()+"/Services/SellerService" == uri {
			return n
		}
	}
	a.t.Fatalf("no machine of the alliance at %s", uri)
	return ""
}

// registerAs registers uri as the alliance's delegate, with no alternates, with the alliance's
// token (as one of its machines does), and returns the registration the search server made.
func (a *testAlliance) registerAs(base, uri string) search.Registration {
	a.t.Helper()
	body, _ := json.Marshal(search.RegisterBody{URI: uri})
	req, _ := http.NewRequest(http.MethodPut, base+"/Services/FlightsSearchReg/Register/"+a.name, strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+a.token)
	resp, err := httpClient.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var reg search.Registration
	if resp.StatusCode != http.StatusOK || json.Unmarshal(b, &reg) != nil {
		a.t.Fatalf("register %s: HTTP %d %s", uri, resp.StatusCode, b)
	}
	return reg
}
