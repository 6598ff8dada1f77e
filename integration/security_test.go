package integration

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"flightalliance/internal/airlinecmd"
	"flightalliance/internal/gcpercent"
	"flightalliance/internal/pki"
	"flightalliance/search"
	"flightalliance/soap"
	"flightalliance/tests/framework"
)

// TestSecureAlliance runs an alliance with its token and TLS everywhere (SOAP, status, etcd's
// peer and client traffic) and tries it as a stranger would: it answers complete, survives a
// kill -9 and restart, gives a seller's data only to a caller with the token and a certificate
// of the alliance's CA, answers nothing on plain HTTP, and shows its token on no command line
// and in no log.
func TestSecureAlliance(t *testing.T) {
	dir := t.TempDir()
	searchAddr := framework.FreeAddr(t)
	base := "https://" + searchAddr
	a := prepareAlliance(t, "star", map[string][]string{"m1": {"LY", "UA"}, "m2": {"LH"}, "m3": {"AC"}}, allianceOpts{search: []string{base}})
	// The search server trusts star's token and another alliance's.
	_, otherToken := "oneworld", pki.Token()
	trust := filepath.Join(dir, "trust")
	if err := pki.WriteSecret(trust, []byte("# alliance token\nstar "+a.token+"\noneworld "+otherToken+"\n")); err != nil {
		t.Fatal(err)
	}
	searchProc := framework.StartProc(t, dir, "search", "search", append([]string{"--listen", searchAddr, "--registration-ttl", "10s", "--trust", trust},
		airlinecmd.TLSArgs(framework.IssueFiles(t, dir, "search"))...)...)
	for _, n := range a.order {
		a.start(n)
	}
	a.waitSettled(60 * time.Second)
	queries := busyQueries(a.activeData(), 3)
	framework.Eventually(t, 30*time.Second, "complete answers over TLS", func() error { return a.checkAnswers(a.delegate(), queries) })
	framework.Eventually(t, 30*time.Second, "complete answers through the https search server", func() error {
		return checkSearch(base, []*testAlliance{a}, queries)
	})

	t.Run("garbage collector target", func(t *testing.T) {
		// GOGC as Go's runtime reads it when set, else the airline server's own target.
		want := gcpercent.Choose(gcpercent.Airline, os.Getenv("GOGC"))
		if want.Off() {
			t.Skip("GOGC=off: no target to check")
		}
		for _, n := range a.order {
			if got := metricSum(t, a.machines[n].url()+"/metrics", "go_gc_gogc_percent"); got != float64(want.Percent) {
				t.Errorf("%s runs its garbage collector at %v%%, want %s", n, got, want)
			}
		}
	})

	t.Run("registration", func(t *testing.T) {
		before, err := registrations(base)
		if err != nil {
			t.Fatal(err)
		}
		put := func(path, token, body string) int {
			req, _ := http.NewRequest(http.MethodPut, base+path, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			resp, err := httpClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp.StatusCode
		}
		stranger := `{"uri":"https://127.0.0.1:1/Services/SellerService"}`
		for name, tc := range map[string]struct {
			path, token string
			want        int
		}{
			"register without a token":                       {"/Services/FlightsSearchReg/Register/star", "", 401},
			"register with a wrong token":                    {"/Services/FlightsSearchReg/Register/star", a.token + "x", 403},
			"register with another alliance's token":         {"/Services/FlightsSearchReg/Register/star", otherToken, 403},
			"register an alliance the server does not trust": {"/Services/FlightsSearchReg/Register/skyteam", a.token, 403},
			"unregister by name without a token":             {"/Services/FlightsSearchReg/Unregister?cluster=star", "", 401},
			"unregister by name with another's token":        {"/Services/FlightsSearchReg/Unregister?cluster=star", otherToken, 403},
			"unregister by address without a token":          {"/Services/FlightsSearchReg/Unregister", "", 401},
		} {
			if got := put(tc.path, tc.token, stranger); got != tc.want {
				t.Errorf("%s: HTTP %d, want %d", name, got, tc.want)
			}
		}
		// Another alliance's token, by address: it may remove only its own registrations.
		if got := put("/Services/FlightsSearchReg/Unregister", otherToken, ""); got/100 != 2 {
			t.Errorf("unregister by address with oneworld's token: HTTP %d", got)
		}
		after, err := registrations(base)
		if err != nil {
			t.Fatal(err)
		}
		if len(after) != len(before) || len(after) != 1 || after[0].URI != before[0].URI {
			t.Errorf("registrations changed: %+v, then %+v", before, after)
		}
		if err := checkSearch(base, []*testAlliance{a}, queries); err != nil {
			t.Errorf("searches after the attempts: %v", err)
		}
	})

	m1 := a.machines["m1"]
	intra := m1.url() + "/Services/IntraClusterService"
	fetch := func(opts soap.ClientOptions) error {
		opts.Timeout = 5 * time.Second
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		page, err := soap.NewIntraClient(intra, opts).SendSeller(ctx, soap.RolePrimary, "LY", "")
		if err == nil && len(page.Flights) == 0 {
			return errors.New("no flights")
		}
		return err
	}
	t.Run("token", func(t *testing.T) {
		for name, token := range map[string]string{"no token": "", "wrong token": a.token + "x", "another alliance's token": "0123456789abcdef"} {
			err := fetch(soap.ClientOptions{HTTPClient: httpClient, Token: token})
			var f *soap.Fault
			if !errors.As(err, &f) || f.Code != soap.CodeClient {
				t.Errorf("%s: sendPrimarySeller gave %v, want a Client fault and no data", name, err)
			}
		}
		if err := fetch(soap.ClientOptions{HTTPClient: httpClient, Token: a.token}); err != nil {
			t.Errorf("with the token and a certificate: %v", err)
		}
	})
	t.Run("certificate", func(t *testing.T) {
		noCert := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: framework.TesterTLS.RootCAs}}}
		if err := fetch(soap.ClientOptions{HTTPClient: noCert, Token: a.token}); err == nil {
			t.Error("a caller with the token but no certificate got the seller")
		}
		untrusting := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{Certificates: framework.TesterTLS.Certificates}}}
		if err := fetch(soap.ClientOptions{HTTPClient: untrusting, Token: a.token}); err == nil {
			t.Error("a caller that does not know the CA trusted the machine")
		}
	})
	t.Run("etcd", func(t *testing.T) {
		plain, err := clientv3.New(clientv3.Config{Endpoints: []string{"http://" + m1.client}, DialTimeout: 2 * time.Second, Logger: zap.NewNop()})
		if err != nil {
			return // refused at once: fine
		}
		defer plain.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		if _, err := plain.Get(ctx, "/alliances/", clientv3.WithPrefix()); err == nil {
			t.Error("a plain-text etcd client read the tree")
		}
		cli := a.etcd()
		defer cli.Close()
		ctx2, cancel2 := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel2()
		if _, err := cli.Get(ctx2, "/alliances/", clientv3.WithPrefix(), clientv3.WithCountOnly()); err != nil {
			t.Errorf("an etcd client with a certificate of the CA: %v", err)
		}
	})
	t.Run("plain HTTP", func(t *testing.T) {
		for _, path := range []string{"/healthz", "/status", "/Services/SellerService?wsdl"} {
			resp, err := http.Get("http://" + m1.listen + path)
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode < 400 {
					t.Errorf("plain HTTP %s: %s", path, resp.Status)
				}
			}
		}
	})

	// kill -9 and restart with the same command line: the alliance settles and answers again.
	a.kill("m2")
	a.restart("m2")
	framework.Eventually(t, 90*time.Second, "m2 serves again over TLS", func() error {
		st, err := a.status("m2")
		switch {
		case err != nil:
			return err
		case st.Joining || len(st.Serving) == 0:
			return fmt.Errorf("m2: joining=%v serving=%v", st.Joining, st.Serving)
		}
		return nil
	})
	a.waitSettled(90 * time.Second)
	framework.Eventually(t, 30*time.Second, "complete answers after kill -9 and restart", func() error { return a.checkAnswers(a.delegate(), queries) })
	framework.Eventually(t, 30*time.Second, "complete answers through the search server after kill -9 and restart", func() error {
		return checkSearch(base, []*testAlliance{a}, queries)
	})

	t.Run("secrets", func(t *testing.T) {
		procs := map[string]*framework.Proc{"search": searchProc}
		for _, name := range a.order {
			procs[name] = a.machines[name].proc
		}
		for name, p := range procs {
			pid := p.Pid()
			cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(cmdline, []byte(a.token)) {
				t.Errorf("%s: the token is on its command line", name)
			}
			log, err := os.ReadFile(p.Log)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(log), a.token) || strings.Contains(string(log), otherToken) {
				t.Errorf("%s: the token is in its log", name)
			}
		}
	})
}

// registrations lists a search server's registrations.
func registrations(base string) ([]search.Registration, error) {
	var list search.RegistrationList
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := getJSON(ctx, base+"/Services/FlightsSearchReg/", &list)
	return list.Registrations, err
}
