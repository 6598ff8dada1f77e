package soap

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
)

const envelopeFmt = `<?xml version="1.0" encoding="UTF-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>%s</soap:Body></soap:Envelope>`

func envelope(body string) string { return strings.Replace(envelopeFmt, "%s", body, 1) }

const validBySrc = `<getRelevantFlightsBySrc xmlns="urn:flightalliance:v1"><Src>TLV</Src><Date>2026-12-01</Date></getRelevantFlightsBySrc>`

// post sends body to the IntraClusterService and returns the HTTP status and the decoded fault
// (nil when the answer is no fault).
func post(t *testing.T, s *server, method, contentType, body string) (int, *Fault) {
	t.Helper()
	req, err := http.NewRequest(method, s.URL+IntraClusterServicePath, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/xml; charset=utf-8" {
		t.Errorf("Content-Type %q, want text/xml; charset=utf-8", ct)
	}
	var env struct {
		Body struct {
			Inner []byte `xml:",innerxml"`
		} `xml:"http://schemas.xmlsoap.org/soap/envelope/ Body"`
	}
	if err := xml.Unmarshal(raw, &env); err != nil {
		t.Fatalf("answer is no SOAP envelope: %v\n%s", err, raw)
	}
	err = decodeResponse(env.Body.Inner, OpRelevantBySrc+"Response", &RelevantFlightsResponse{})
	var f *Fault
	if errors.As(err, &f) {
		return resp.StatusCode, f
	}
	if err != nil {
		t.Fatalf("answer is neither a fault nor a response: %v\n%s", err, raw)
	}
	return resp.StatusCode, nil
}

func TestRequestFaults(t *testing.T) {
	s := startServer(t, serverOps{maxBody: 4096})
	const xmlType = "text/xml; charset=utf-8"
	for _, tc := range []struct {
		name, method, contentType, body string
		status                          int
		code, message                   string
	}{
		{"malformed XML", "POST", xmlType, envelope(`<getRelevantFlightsBySrc><Src>TLV</Date>`), 500, CodeClient, "malformed XML"},
		{"not XML", "POST", xmlType, "hello", 500, CodeClient, "unexpected text"},
		{"truncated", "POST", xmlType, envelope(validBySrc)[:150], 500, CodeClient, "unexpected EOF"},
		{"unknown operation", "POST", xmlType, envelope(`<bookFlight xmlns="urn:flightalliance:v1"/>`), 500, CodeClient, "unknown operation <bookFlight>"},
		{"operation of the other service", "POST", xmlType, envelope(`<getTrips xmlns="urn:flightalliance:v1"/>`), 500, CodeClient, "unknown operation <getTrips>"},
		{"oversized body", "POST", xmlType, envelope(`<getRelevantFlightsBySrc><Src>` + strings.Repeat("A", 5000) + `</Src></getRelevantFlightsBySrc>`), 413, CodeClient, "exceeds 4096 bytes"},
		{"empty body", "POST", xmlType, "", 500, CodeClient, "empty request body"},
		{"empty soap:Body", "POST", xmlType, envelope(""), 500, CodeClient, "empty soap:Body"},
		{"two operations", "POST", xmlType, envelope(validBySrc + validBySrc), 500, CodeClient, "holds one element only"},
		{"content after the envelope", "POST", xmlType, envelope(validBySrc) + "<more/>", 500, CodeClient, "content after soap:Envelope"},
		{"no envelope", "POST", xmlType, validBySrc, 500, CodeClient, "want soap:Envelope"},
		{"no body", "POST", xmlType, `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Header/></soap:Envelope>`, 500, CodeClient, "soap:Envelope has no soap:Body"},
		{"SOAP 1.2 envelope", "POST", xmlType, `<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope"><env:Body/></env:Envelope>`, 500, CodeVersionMismatch, "SOAP 1.2"},
		{"SOAP 1.2 content type", "POST", "application/soap+xml", envelope(validBySrc), 500, CodeVersionMismatch, "SOAP 1.2"},
		{"wrong content type", "POST", "application/json", `{"Src":"TLV"}`, 500, CodeClient, `Content-Type "application/json"`},
		{"missing content type", "POST", "", envelope(validBySrc), 500, CodeClient, "missing Content-Type"},
		{"latin-1", "POST", "text/xml; charset=iso-8859-1", envelope(validBySrc), 500, CodeClient, `charset "iso-8859-1"`},
		{"mustUnderstand header", "POST", xmlType, `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Header><t:Tx xmlns:t="urn:tx" soap:mustUnderstand="1">1</t:Tx></soap:Header><soap:Body>` + validBySrc + `</soap:Body></soap:Envelope>`, 500, CodeMustUnderstand, "<Tx>"},
		{"external entity", "POST", xmlType, `<?xml version="1.0"?><!DOCTYPE e [<!ENTITY x SYSTEM "file:///etc/passwd">]>` + envelope(`<getRelevantFlightsBySrc><Src>&x;</Src></getRelevantFlightsBySrc>`), 500, CodeClient, "DTD"},
		{"undefined entity", "POST", xmlType, envelope(`<getRelevantFlightsBySrc><Src>&x;</Src></getRelevantFlightsBySrc>`), 500, CodeClient, "invalid character entity &x;"},
		{"PUT", "PUT", xmlType, envelope(validBySrc), 405, CodeClient, "method PUT"},
		{"DELETE", "DELETE", "", "", 405, CodeClient, "method DELETE"},
		{"GET without ?wsdl", "GET", "", "", 404, CodeClient, "add ?wsdl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, f := post(t, s, tc.method, tc.contentType, tc.body)
			if f == nil {
				t.Fatalf("HTTP %d without a fault", status)
			}
			if status != tc.status || f.Code != tc.code || !strings.Contains(f.String, tc.message) {
				t.Errorf("HTTP %d %s %q; want HTTP %d %s containing %q", status, f.Code, f.String, tc.status, tc.code, tc.message)
			}
		})
	}
	// Still serving, with an ignorable header, comments and a quoted SOAPAction of another op.
	body := `<?xml version="1.0"?><!-- hi --><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
	<soap:Header><t:Trace xmlns:t="urn:trace">abc</t:Trace></soap:Header>
	<soap:Body>` + validBySrc + `</soap:Body></soap:Envelope>`
	if status, f := post(t, s, "POST", `text/xml; charset="UTF-8"`, body); status != 200 || f != nil {
		t.Fatalf("a valid call after the faults: HTTP %d fault %v", status, f)
	}
	if s.count(OpRelevantBySrc) != 1 {
		t.Errorf("operation ran %d times, want once (only for the valid call)", s.count(OpRelevantBySrc))
	}
}

// TestOperationFaults checks what a client sees when an operation refuses, fails or panics,
// and that the server keeps serving.
func TestOperationFaults(t *testing.T) {
	s := startServer(t, serverOps{
		getTrips: func(_ context.Context, req *GetTripsRequest) (*GetTripsResponse, error) {
			switch req.Src {
			case "bad":
				return nil, ClientFault("Src %q: not an IATA airport code", req.Src)
			case "err":
				return nil, errors.New("connect to 10.1.2.3: secret internals")
			case "nil":
				return nil, nil
			case "panic":
				panic("index out of range")
			}
			return sampleTrips(), nil
		},
	})
	c := s.seller()
	ctx := context.Background()
	for _, tc := range []struct{ src, code, message string }{
		{"bad", CodeClient, `Src "bad": not an IATA airport code`},
		{"err", CodeServer, "getTrips failed on the server"},
		{"nil", CodeServer, "getTrips failed on the server"},
		{"panic", CodeServer, "getTrips: internal error"},
	} {
		_, err := c.GetTrips(ctx, GetTripsRequest{Src: tc.src, Dst: "JFK", Date: "2026-12-01"})
		f := asFault(t, err)
		if f.Code != tc.code || f.String != tc.message {
			t.Errorf("Src %s: fault %s %q, want %s %q", tc.src, f.Code, f.String, tc.code, tc.message)
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("Src %s: fault leaks the error: %v", tc.src, err)
		}
		if _, err := c.GetTrips(ctx, GetTripsRequest{Src: "TLV", Dst: "JFK", Date: "2026-12-01"}); err != nil {
			t.Errorf("call after Src %s: %v", tc.src, err)
		}
	}
}

func TestFaultEnvelopeIsDecodableByGosoapShape(t *testing.T) {
	var buf bytes.Buffer
	writeFaultEnvelope(&buf, &Fault{Code: CodeClient, String: `Src "<x>": bad`, Detail: "d&d"})
	var env struct {
		Body struct {
			Inner []byte `xml:",innerxml"`
		} `xml:"Body"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &env); err != nil {
		t.Fatal(err)
	}
	// The inner XML alone, as gosoap hands it over, must still say what the fault is.
	err := decodeResponse(env.Body.Inner, "xResponse", nil)
	f := asFault(t, err)
	if *f != (Fault{Code: CodeClient, String: `Src "<x>": bad`, Detail: "d&d"}) {
		t.Errorf("decoded %+v", f)
	}
}
