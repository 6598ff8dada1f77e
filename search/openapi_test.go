package search

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/legacy"

	"flightalliance/soap"
)

// TestResponsesMatchTheOpenAPIDocument fetches /openapi.json from the running server and checks
// real requests and responses (200, 400, 413, registration, listing, unregister) against it.
func TestResponsesMatchTheOpenAPIDocument(t *testing.T) {
	star := startDelegate(t, answer(starTrips))
	stuck := startDelegate(t, slow)
	partial := startDelegate(t, answer(soap.GetTripsResponse{MissingSellers: []string{"BA"}, Trips: skyTrips.Trips}))
	ts := startSearch(t, Config{DelegateTimeout: 200 * time.Millisecond})

	check := openAPIChecker(t, ts.URL)

	for name, uri := range map[string]string{"star": star.URI, "stuck": stuck.URI, "partial": partial.URI} {
		check(http.MethodPut, "/Services/FlightsSearchReg/Register/"+name, `{"uri":"`+uri+`"}`, 200)
	}

	complete := check(http.MethodGet, "/Services/FlightsSearch/flight?src=TLV&dst=JFK&date=2026-12-01&servers=LY,UA", "", 200)
	if !bytes.Contains(complete, []byte(`"legs"`)) {
		t.Errorf("the validated answer has no trips: %s", complete)
	}
	check(http.MethodGet, "/Services/FlightsSearch/flight?src=TLV&dst=JFK&date=2026-12-01", "", 200)
	check(http.MethodGet, "/Services/FlightsSearch/flight?src=TLV&dst=TLV&date=2026-12-01", "", 400)
	check(http.MethodGet, "/Services/FlightsSearch/flight?src=TLV&dst=JFK&date=tomorrow", "", 400)
	check(http.MethodPut, "/Services/FlightsSearchReg/Register/star", `{"uri":"ftp://x"}`, 400)
	check(http.MethodPut, "/Services/FlightsSearchReg/Register/star", `{"uri":"http://x/`+strings.Repeat("a", 70000)+`"}`, 413)
	check(http.MethodGet, "/Services/FlightsSearchReg/", "", 200)
	check(http.MethodPut, "/Services/FlightsSearchReg/Unregister?cluster=stuck", "", 200)
	check(http.MethodPut, "/Services/FlightsSearchReg/Unregister", "", 200)
	check(http.MethodPut, "/Services/FlightsSearchReg/Unregister?cluster=a.b", "", 400)
	check(http.MethodGet, "/healthz", "", 200)
}

// openAPIChecker fetches /openapi.json from the server at base, checks that it is a valid
// document, and returns a function that sends a request (with the given headers) and checks it
// against the document: the request when the server is expected to accept it, the answer always.
// It fails the test when the status is not the one wanted, and returns the body.
func openAPIChecker(t *testing.T, base string) func(method, path, body string, wantStatus int, header ...string) []byte {
	t.Helper()
	code, docBytes := do(t, http.MethodGet, base+"/openapi.json", "")
	if code != http.StatusOK {
		t.Fatalf("/openapi.json: %d", code)
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(docBytes)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := doc.Validate(ctx); err != nil {
		t.Fatalf("the OpenAPI document is invalid: %v", err)
	}
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}

	return func(method, path, body string, wantStatus int, header ...string) []byte {
		t.Helper()
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req, err := http.NewRequest(method, base+path, rd)
		if err != nil {
			t.Fatal(err)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		route, params, err := router.FindRoute(req)
		if err != nil {
			t.Fatalf("%s %s is not in the document: %v", method, path, err)
		}
		in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{MultiError: true, AuthenticationFunc: bearerPresent}}
		if wantStatus < 300 {
			// Only requests the server accepts must satisfy the document; the others are the
			// server's own validation under test. The body is re-attached after validation reads it.
			if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
				t.Errorf("%s %s: request does not match the document: %v", method, path, err)
			}
			if body != "" {
				req.Body = io.NopCloser(strings.NewReader(body))
			}
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		got, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != wantStatus {
			t.Fatalf("%s %s: %d %s, want %d", method, path, resp.StatusCode, got, wantStatus)
		}
		out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: resp.StatusCode,
			Header: resp.Header, Options: &openapi3filter.Options{MultiError: true, IncludeResponseStatus: true}}
		out.SetBodyBytes(got)
		if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
			t.Errorf("%s %s: response does not match the document: %v\n%s", method, path, err, got)
		}
		return got
	}
}

// bearerPresent is the document's security checked as a client sees it: the bearer scheme is
// satisfied by an "Authorization: Bearer <token>" header (whether the token is right is the
// server's business, under test).
func bearerPresent(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	if in.SecuritySchemeName != "bearer" {
		return fmt.Errorf("unknown security scheme %q", in.SecuritySchemeName)
	}
	scheme, tok, _ := strings.Cut(in.RequestValidationInput.Request.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "Bearer") || tok == "" {
		return errors.New("no bearer token")
	}
	return nil
}
