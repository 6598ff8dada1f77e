package search

import (
	"flightalliance/search/booking"

	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestEveryBadInputIs400NamingIt drives every refusal through HTTP: status 400 (413 for a body
// too large), a JSON {"error": ...} whose message names the parameter or field.
func TestEveryBadInputIs400NamingIt(t *testing.T) {
	ts := startSearch(t, Config{})
	const reg = "/Services/FlightsSearchReg/Register/"
	const goodURI = `{"uri":"http://127.0.0.1:8101/Services/SellerService"}`
	type tc struct {
		method, path, body string
		status             int
		names              string
	}
	cases := []tc{
		{"GET", "/Services/FlightsSearch/flight?src=TLV&dst=JFK&date=2026-12-01&servers=LY;UA", "", 400, "servers: "},
		{"GET", "/Services/FlightsSearch/flight?src=TLV&dst=JFK&date=2026-12-01&x=%zz", "", 400, "x: invalid URL escape"},
		{"GET", "/Services/FlightsSearch/flight?src=%ZZ&dst=JFK&date=2026-12-01", "", 400, "src: invalid URL escape"},
		{"PUT", reg + "star", `{"uri":`, 400, "body"},
		{"PUT", reg + "star", ``, 400, "body"},
		{"PUT", reg + "star", `["http://127.0.0.1:8101/"]`, 400, "body"},
		{"PUT", reg + "star", `{"uri":"http://127.0.0.1:8101/","name":"x"}`, 400, "body"},
		{"PUT", reg + "star", goodURI + `{}`, 400, "body"},
		{"PUT", reg + "star", `{}`, 400, "uri"},
		{"PUT", reg + "star", `{"uri":""}`, 400, "uri"},
		{"PUT", reg + "star", `{"uri":"/Services/SellerService"}`, 400, "uri"},
		{"PUT", reg + "star", `{"uri":"127.0.0.1:8101/Services/SellerService"}`, 400, "uri"},
		{"PUT", reg + "star", `{"uri":"ftp://127.0.0.1/Services/SellerService"}`, 400, "uri"},
		{"PUT", reg + "star", `{"uri":"http:///Services/SellerService"}`, 400, "uri"},
		{"PUT", reg + "star", `{"uri":"http://u:p@127.0.0.1:8101/"}`, 400, "uri"},
		{"PUT", reg + "star", `{"uri":"http://127.0.0.1:8101/` + strings.Repeat("a", 3000) + `"}`, 400, "uri"},
		{"PUT", reg + "star", `{"uri":"http://127.0.0.1:8101/` + strings.Repeat("a", 70000) + `"}`, 413, "body"},
		{"PUT", reg + strings.Repeat("a", 65), goodURI, 400, "clustername"},
		{"PUT", reg + "star.alliance", goodURI, 400, "clustername"},
		{"PUT", reg + "star%20alliance", goodURI, 400, "clustername"},
		{"PUT", reg + "star?ttl=5", goodURI, 400, "query parameters"},
		{"PUT", "/Services/FlightsSearchReg/Unregister?name=star", "", 400, "name"},
		{"PUT", "/Services/FlightsSearchReg/Unregister?cluster=", "", 400, "cluster"},
		{"PUT", "/Services/FlightsSearchReg/Unregister?cluster=a.b", "", 400, "cluster"},
		{"PUT", "/Services/FlightsSearchReg/Unregister?cluster=a&cluster=b", "", 400, "cluster"},
		{"PUT", "/Services/FlightsSearchReg/Unregister?cluster=a;b", "", 400, "cluster: "},
	}
	for _, q := range badQueries {
		cases = append(cases, tc{"GET", "/Services/FlightsSearch/flight?" + q.raw, "", 400, q.field + ": "})
	}
	for _, c := range cases {
		code, b := do(t, c.method, ts.URL+c.path, c.body)
		var e ErrorBody
		if err := json.Unmarshal(b, &e); err != nil || code != c.status || !strings.Contains(e.Error, c.names) {
			t.Errorf("%s %.90s %.40q: %d %.200s; want %d naming %q", c.method, c.path, c.body, code, b, c.status, c.names)
		}
	}
	if l := ts.list(t); len(l.Registrations) != 0 {
		t.Errorf("a refused registration was stored: %+v", l)
	}
}

func TestUnknownRoutesAndMethodsAnswerJSON(t *testing.T) {
	ts := startSearch(t, Config{})
	for _, c := range []struct {
		method, path string
		status       int
	}{
		{"GET", "/nope", http.StatusNotFound},
		{"POST", "/Services/FlightsSearch/flight?src=TLV&dst=JFK&date=2026-12-01", http.StatusMethodNotAllowed},
		{"GET", "/Services/FlightsSearchReg/Register/star", http.StatusMethodNotAllowed},
	} {
		code, b := do(t, c.method, ts.URL+c.path, "")
		var e ErrorBody
		if code != c.status || json.Unmarshal(b, &e) != nil || e.Error == "" {
			t.Errorf("%s %s: %d %s", c.method, c.path, code, b)
		}
	}
}

// TestHeadIsAnsweredAsGetAnd405NamesTheAllowedMethods: HEAD is answered wherever GET is, with
// GET's status and headers and no body; a 405 says in Allow what the path does take (RFC 9110).
func TestHeadIsAnsweredAsGetAnd405NamesTheAllowedMethods(t *testing.T) {
	ts := startAlliance(t, Config{}, newMachine("m1"))
	for _, path := range []string{"/openapi.json", "/healthz", "/Services/FlightsSearchReg/",
		"/Services/FlightsSearch/flight?src=TLV&dst=JFK&date=2026-12-01", "/Services/FlightsSearch/flight?src=TLV"} {
		req, _ := http.NewRequest(http.MethodHead, ts.URL+path, nil)
		head, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		head.Body.Close()
		get, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		get.Body.Close()
		if head.StatusCode != get.StatusCode || head.Header.Get("Content-Type") != get.Header.Get("Content-Type") {
			t.Errorf("HEAD %s: %d %q; GET: %d %q", path, head.StatusCode, head.Header.Get("Content-Type"), get.StatusCode, get.Header.Get("Content-Type"))
		}
	}
	for _, c := range []struct{ method, path, allow string }{
		{http.MethodPost, "/Services/FlightsSearch/flight", "GET, HEAD"},
		{http.MethodPut, "/openapi.json", "GET, HEAD"},
		{http.MethodGet, booking.Path, "POST"},
		{http.MethodPut, booking.Path + "/" + sampleBookingID, "GET, HEAD, DELETE"},
		{http.MethodGet, "/Services/FlightsSearchReg/Register/star", "PUT"},
		{http.MethodOptions, "/Services/FlightsSearchReg/Unregister", "PUT"},
		{"FOO", "/openapi.json", "GET, HEAD"},
	} {
		req, _ := http.NewRequest(c.method, ts.URL+c.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != c.allow {
			t.Errorf("%s %s: %d, Allow %q; want 405, Allow %q", c.method, c.path, resp.StatusCode, resp.Header.Get("Allow"), c.allow)
		}
	}
	// A path no method takes is not found, whatever the method.
	for _, method := range []string{http.MethodGet, http.MethodPatch, "FOO"} {
		req, _ := http.NewRequest(method, ts.URL+"/nope", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s /nope: %d, want 404", method, resp.StatusCode)
		}
	}
}
