package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"flightalliance/search"
	"flightalliance/soap"
)

func leg(fl, src, dst, dep, arr, price string) soap.Leg {
	return soap.Leg{Flight: fl, Seller: fl[:2], Src: src, Dst: dst,
		Departure: "2026-12-01T" + dep + ":00Z", Arrival: "2026-12-01T" + arr + ":00Z", Price: price, Seats: 5}
}

// startDelegate serves a real SOAP SellerService on 127.0.0.1 whose getTrips calls fn.
func startDelegate(t *testing.T, fn func(ctx context.Context, req *soap.GetTripsRequest) (*soap.GetTripsResponse, error)) string {
	t.Helper()
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	mux.Handle(soap.SellerServicePath, soap.NewHandler(soap.SellerService(soap.Op(soap.OpGetTrips, fn)),
		soap.HandlerOptions{Address: srv.URL}))
	return srv.URL + soap.SellerServicePath
}

// startSearch runs a real search server with the given delegates registered, and returns its URL.
func startSearch(t *testing.T, delegates map[string]string) string {
	t.Helper()
	s, err := search.New(search.Config{DelegateTimeout: 300 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	for name, uri := range delegates {
		body, _ := json.Marshal(search.RegisterBody{URI: uri})
		req, _ := http.NewRequest(http.MethodPut, srv.URL+"/Services/FlightsSearchReg/Register/"+name, bytes.NewReader(body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("register %s: %v %v", name, resp, err)
		}
		resp.Body.Close()
	}
	return srv.URL
}

func star(ctx context.Context, req *soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
	trips := []soap.Trip{
		{Price: "512.00", Legs: []soap.Leg{leg("LY001", "TLV", "JFK", "08:00", "19:10", "512.00")}},
		{Price: "430.00", Legs: []soap.Leg{leg("LY007", "TLV", "ATH", "06:00", "08:00", "130.00"), leg("UA220", "ATH", "JFK", "09:30", "20:00", "300.00")}},
	}
	if req.Sellers != nil {
		trips = trips[:1]
	}
	return &soap.GetTripsResponse{Complete: true, Trips: trips}, nil
}

func stuck(ctx context.Context, _ *soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func flights(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func TestSearchPrintsATableSortedByPrice(t *testing.T) {
	url := startSearch(t, map[string]string{"star": startDelegate(t, star)})
	code, out, errOut := flights("search", "--server", url, "--from", "TLV", "--to", "JFK", "--date", "2026-12-01")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "PRICE") ||
		!strings.HasPrefix(lines[1], "430.00  LY007+UA220  TLV-ATH-JFK") || !strings.HasPrefix(lines[2], "512.00  LY001") {
		t.Errorf("table:\n%s", out)
	}
	if strings.Contains(out, "INCOMPLETE") {
		t.Errorf("a complete answer is flagged incomplete:\n%s", out)
	}
}

func TestSearchJSONIsTheServersAnswer(t *testing.T) {
	url := startSearch(t, map[string]string{"star": startDelegate(t, star)})
	code, out, errOut := flights("search", "--server", url+"/", "--from", "TLV", "--to", "JFK", "--date", "2026-12-01", "--sellers", "LY", "--json")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var a search.Answer
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("--json output is not JSON: %v\n%s", err, out)
	}
	if len(a.Trips) != 1 || !slices.Equal(a.Query.Servers, []string{"LY"}) || !a.Complete || a.Trips[0].Legs[0].Alliance != "star" {
		t.Errorf("answer = %+v", a)
	}
}

func TestSearchIncompleteAnswerExits2AndSaysWhy(t *testing.T) {
	url := startSearch(t, map[string]string{"star": startDelegate(t, star), "sky": startDelegate(t, stuck)})
	code, out, _ := flights("search", "--server", url, "--from", "TLV", "--to", "JFK", "--date", "2026-12-01")
	if code != exitUnreliable {
		t.Errorf("exit %d, want 2", code)
	}
	if !strings.Contains(out, "INCOMPLETE") || !strings.Contains(out, "alliance sky did not answer") || !strings.Contains(out, "LY001") {
		t.Errorf("output:\n%s", out)
	}
	code, out, errOut := flights("search", "--server", url, "--from", "TLV", "--to", "JFK", "--date", "2026-12-01", "--json")
	if code != exitUnreliable || !json.Valid([]byte(out)) || !strings.Contains(errOut, "INCOMPLETE") {
		t.Errorf("--json: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestSearchUnreachableServerExits2(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	code, _, errOut := flights("search", "--server", url, "--from", "TLV", "--to", "JFK", "--date", "2026-12-01")
	if code != exitUnreliable || !strings.Contains(errOut, "unreachable") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func TestSearchBadInputExits1NamingTheFlag(t *testing.T) {
	url := startSearch(t, nil)
	base := []string{"search", "--server", url}
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"--to", "JFK", "--date", "2026-12-01"}, "--from"},
		{[]string{"--from", "tlv", "--to", "JFK", "--date", "2026-12-01"}, "--from"},
		{[]string{"--from", "TLV", "--to", "JFKX", "--date", "2026-12-01"}, "--to"},
		{[]string{"--from", "TLV", "--to", "TLV", "--date", "2026-12-01"}, "--to"},
		{[]string{"--from", "TLV", "--to", "JFK"}, "--date"},
		{[]string{"--from", "TLV", "--to", "JFK", "--date", "2026-12-32"}, "--date"},
		{[]string{"--from", "TLV", "--to", "JFK", "--date", "2026-12-01", "--sellers", "ly"}, "--sellers"},
		{[]string{"--from", "TLV", "--to", "JFK", "--date", "2026-12-01", "--timeout", "0s"}, "--timeout"},
		{[]string{"--from", "TLV", "--to", "JFK", "--date", "2026-12-01", "--server", "localhost:8080"}, "--server"},
		{[]string{"--from", "TLV", "--to", "JFK", "--date", "2026-12-01", "--bogus"}, "-bogus"},
		{[]string{"--from", "TLV", "--to", "JFK", "--date", "2026-12-01", "extra"}, "extra"},
	} {
		code, _, errOut := flights(append(base, c.args...)...)
		if code != exitUsage || !strings.Contains(errOut, c.flag) {
			t.Errorf("%v: exit %d, stderr %q; want 1 naming %s", c.args, code, errOut, c.flag)
		}
	}
}

func TestServerRefusalIsReportedAsTheFlag(t *testing.T) {
	if got := flagNamed("servers: \"X\" is not a seller code"); got != "--sellers: \"X\" is not a seller code" {
		t.Errorf("flagNamed = %q", got)
	}
}

func TestHelpForEverySubcommand(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"search", "--help"}, {"generate", "--help"}, {"book", "--help"},
		{"booking", "--help"}, {"cancel", "--help"}, {"confirm", "--help"}, {"seats", "--help"}} {
		code, out, errOut := flights(args...)
		if code != exitOK || !strings.Contains(out+errOut, "usage: flights") {
			t.Errorf("%v: exit %d, %q %q", args, code, out, errOut)
		}
	}
	if code, _, _ := flights(); code != exitUsage {
		t.Errorf("no command: exit %d", code)
	}
	if code, _, errOut := flights("bogus"); code != exitUsage || !strings.Contains(errOut, `"bogus"`) {
		t.Errorf("unknown command: exit %d, %q", code, errOut)
	}
}

func TestGenerateWritesOneCSVPerSeller(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := flights("generate", "--sellers", "LY,UA", "--from", "2026-12-01", "--days", "2", "--per-day", "3", "--seed", "7", "--out", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "wrote 12 flights of 2 sellers") {
		t.Errorf("stdout %q", out)
	}
	for _, s := range []string{"LY", "UA"} {
		b, err := os.ReadFile(filepath.Join(dir, s+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		if lines := strings.Split(strings.TrimSpace(string(b)), "\n"); len(lines) != 7 || lines[0] != "flight,seller,src,dst,departure,arrival,price,seats" {
			t.Errorf("%s.csv:\n%s", s, b)
		}
	}
	again := t.TempDir()
	flights("generate", "--sellers", "LY,UA", "--from", "2026-12-01", "--days", "2", "--per-day", "3", "--seed", "7", "--out", again)
	a, _ := os.ReadFile(filepath.Join(dir, "LY.csv"))
	b, _ := os.ReadFile(filepath.Join(again, "LY.csv"))
	if !bytes.Equal(a, b) {
		t.Error("the same flags wrote different files")
	}
}

// An alliance of 20 machines × 10 sellers needs 200 seller files from one call.
func TestGenerateTwoHundredSellers(t *testing.T) {
	var codes []string
	for i := range 200 {
		codes = append(codes, fmt.Sprintf("S%03d", i+1))
	}
	dir := t.TempDir()
	code, out, errOut := flights("generate", "--sellers", strings.Join(codes, ","), "--from", "2026-12-01", "--days", "1", "--per-day", "2", "--out", dir)
	if code != exitOK || !strings.Contains(out, "of 200 sellers") {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*.csv")); len(files) != 200 {
		t.Fatalf("%d files, want 200", len(files))
	}
}

func TestGenerateBadFlagsNameTheFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"--from", "2026-12-01"}, "--sellers"},
		{[]string{"--sellers", "L", "--from", "2026-12-01"}, "--sellers"},
		{[]string{"--sellers", "LY,,UA", "--from", "2026-12-01"}, "--sellers"},
		{[]string{"--sellers", "LY"}, "--from"},
		{[]string{"--sellers", "LY", "--from", "2026-12-1"}, "--from"},
		{[]string{"--sellers", "LY", "--from", "2026-12-01", "--days", "0"}, "--days"},
		{[]string{"--sellers", "LY", "--from", "2026-12-01", "--per-day", "-1"}, "--per-day"},
		{[]string{"--sellers", "LY", "--from", "2026-12-01", "--out", ""}, "--out"},
	} {
		code, _, errOut := flights(append([]string{"generate", "--out", t.TempDir()}, c.args...)...)
		if code != exitUsage || !strings.Contains(errOut, c.flag) {
			t.Errorf("%v: exit %d, stderr %q; want 1 naming %s", c.args, code, errOut, c.flag)
		}
	}
}
