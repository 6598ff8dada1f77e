package integration

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"flightalliance/tests/framework"
)

// zeros is an endless body of one repeated byte, cut at n bytes.
type zeros struct{ n int }

func (z *zeros) Read(p []byte) (int, error) {
	if z.n <= 0 {
		return 0, io.EOF
	}
	k := min(len(p), z.n)
	for i := range p[:k] {
		p[i] = 'A'
	}
	z.n -= k
	return k, nil
}

// TestOversizedBodies posts 64 MiB to a real airline server's SOAP service and to a real search
// server's registration and booking routes: each answers with a fault or a 413 the client reads
// while it is still sending, and both keep answering afterwards.
func TestOversizedBodies(t *testing.T) {
	dir := t.TempDir()
	base, _ := framework.StartSearch(t, dir, "--registration-ttl", "10s")
	a := newAlliance(t, "star", map[string][]string{"m1": {"LY"}, "m2": {"UA"}}, base)
	queries, _ := a.readyQueries(base, 2)

	client := &http.Client{Timeout: time.Minute, Transport: testerTransport()}
	token := ""
	post := func(method, url, contentType string, prefix string) (int, string) {
		t.Helper()
		body := io.MultiReader(strings.NewReader(prefix), &zeros{n: 64 << 20})
		req, err := http.NewRequest(method, url, body)
		if err != nil {
			t.Fatal(err)
		}
		req.ContentLength = int64(len(prefix)) + 64<<20
		req.Header.Set("Content-Type", contentType)
		req.Header.Set("Idempotency-Key", "big")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s with 64 MiB: no answer: %v", method, url, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return resp.StatusCode, string(b)
	}
	soapHead := `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><getTrips xmlns="urn:flightalliance:v1"><Src>`
	if status, body := post(http.MethodPost, a.machines["m1"].url()+"/Services/SellerService", "text/xml; charset=utf-8", soapHead); status != http.StatusRequestEntityTooLarge || !strings.Contains(body, "faultstring") {
		t.Errorf("SOAP, 64 MiB: HTTP %d %.200s", status, body)
	}
	// A stranger's registration is refused before its body is read; the alliance's is too big.
	if status, body := post(http.MethodPut, base+"/Services/FlightsSearchReg/Register/star", "application/json", `{"uri":"`); status != http.StatusUnauthorized || !strings.Contains(body, "error") {
		t.Errorf("registration without a token, 64 MiB: HTTP %d %.200s", status, body)
	}
	token = a.token
	if status, body := post(http.MethodPut, base+"/Services/FlightsSearchReg/Register/star", "application/json", `{"uri":"`); status != http.StatusRequestEntityTooLarge || !strings.Contains(body, "error") {
		t.Errorf("registration, 64 MiB: HTTP %d %.200s", status, body)
	}
	token = ""
	if status, body := post(http.MethodPost, base+"/Services/FlightsSearch/bookings", "application/json", `{"alliance":"`); status != http.StatusRequestEntityTooLarge || !strings.Contains(body, "error") {
		t.Errorf("booking, 64 MiB: HTTP %d %.200s", status, body)
	}
	if err := checkSearch(base, []*testAlliance{a}, queries); err != nil {
		t.Errorf("searches after the big bodies: %v", err)
	}
	if err := a.checkAnswers("m1", queries); err != nil {
		t.Errorf("SOAP after the big bodies: %v", err)
	}
}
