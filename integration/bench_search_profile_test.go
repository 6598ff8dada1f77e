package integration

import (
	"encoding/json"
	"flightalliance/search"
	"flightalliance/tests/framework"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"testing"
	"time"
)

// profileREST runs the warm and cold REST loops through in-process search servers registered
// with the alliances' delegates, under the CPU profiler.
func profileREST(b *testing.B, dir string, cold, warm *testAlliance, queries []query) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	client := &http.Client{Transport: tuned(testerTransport(), 8), Timeout: 2 * time.Minute}
	for _, run := range []struct {
		name string
		a    *testAlliance
	}{{"warm", warm}, {"cold", cold}} {
		s, err := search.New(search.Config{RegistrationTTL: time.Hour, DelegateTimeout: time.Minute, HedgeDelay: time.Minute,
			Logger: slog.New(slog.DiscardHandler), DelegateTLS: framework.TesterTLS})
		if err != nil {
			b.Fatal(err)
		}
		srv := httptest.NewServer(s.Handler())
		body, _ := json.Marshal(search.RegisterBody{URI: run.a.machines[run.a.delegate()].url() + "/Services/SellerService"})
		req, _ := http.NewRequest(http.MethodPut, srv.URL+"/Services/FlightsSearchReg/Register/"+run.a.name, strings.NewReader(string(body)))
		resp, err := client.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("register with the in-process search server: %v %v", resp, err)
		}
		resp.Body.Close()
		for _, q := range queries { // connections, WSDL and (warm) the delegate's cache
			if _, err := restCall(client, srv.URL, q, 0); err != nil {
				b.Fatal(err)
			}
		}
		path := filepath.Join(dir, "cpu-rest-"+run.name+".pprof")
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			b.Fatal(err)
		}
		perQuery(b, client, srv.URL, queries, 0, 3, false)
		allCalls(b, client, srv.URL, queries, 20, 3)
		pprof.StopCPUProfile()
		f.Close()
		srv.Close()
		b.Logf("CPU profile of the REST path (%s): %s (go tool pprof -top %s)", run.name, path, path)
	}
}
