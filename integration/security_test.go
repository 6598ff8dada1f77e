package integration

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"flightalliance/soap"
)

// TestSecureAlliance runs an alliance with its token and TLS everywhere (SOAP, status, etcd's
// peer and client traffic) and tries it as a stranger would: it answers complete, survives a
// kill -9 and restart, gives a seller's data only to a caller with the token and a certificate
// of the alliance's CA, answers nothing on plain HTTP, and shows its token on no command line
// and in no log.
func TestSecureAlliance(t *testing.T) {
	a := startAlliance(t, "star", map[string][]string{"m1": {"LY", "UA"}, "m2": {"LH"}, "m3": {"AC"}}, allianceOpts{secure: true})
	a.waitSettled(60 * time.Second)
	queries := busyQueries(a.activeData(), 3)
	eventually(t, 30*time.Second, "complete answers over TLS", func() error { return a.checkAnswers(a.delegate(), queries) })

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
		noCert := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: testerTLS.RootCAs}}}
		if err := fetch(soap.ClientOptions{HTTPClient: noCert, Token: a.token}); err == nil {
			t.Error("a caller with the token but no certificate got the seller")
		}
		untrusting := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{Certificates: testerTLS.Certificates}}}
		if err := fetch(soap.ClientOptions{HTTPClient: untrusting, Token: a.token}); err == nil {
			t.Error("a caller that does not know the CA trusted the machine")
		}
	})
	t.Run("etcd", func(t *testing.T) {
		plain, err := clientv3.New(clientv3.Config{Endpoints: []string{"http://" + m1.client}, DialTimeout: 2 * time.Second})
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
	eventually(t, 90*time.Second, "m2 serves again over TLS", func() error {
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
	eventually(t, 30*time.Second, "complete answers after kill -9 and restart", func() error { return a.checkAnswers(a.delegate(), queries) })

	t.Run("secrets", func(t *testing.T) {
		for _, name := range a.order {
			p := a.machines[name].proc
			p.mu.Lock()
			pid := p.cmd.Process.Pid
			p.mu.Unlock()
			cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(cmdline, []byte(a.token)) {
				t.Errorf("%s: the token is on its command line", name)
			}
			log, err := os.ReadFile(p.log)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(log), a.token) {
				t.Errorf("%s: the token is in its log", name)
			}
		}
	})
}
