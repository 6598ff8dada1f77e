package soap

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"
)

// captureTransport serves a WSDL and records the calls it gets, answering each with a fault.
type captureTransport struct {
	wsdl  []byte
	mu    sync.Mutex
	calls []*http.Request
	body  [][]byte
}

func (c *captureTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	respond := func(status int, body []byte) *http.Response {
		return &http.Response{StatusCode: status, Status: http.StatusText(status), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: http.Header{"Content-Type": {"text/xml; charset=utf-8"}}, Body: io.NopCloser(bytes.NewReader(body)),
			ContentLength: int64(len(body)), Request: req}
	}
	if req.Method == http.MethodGet {
		return respond(http.StatusOK, c.wsdl), nil
	}
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.calls, c.body = append(c.calls, req), append(c.body, body)
	c.mu.Unlock()
	var fault bytes.Buffer
	writeFaultEnvelope(&fault, ClientFault("recorded"))
	return respond(http.StatusInternalServerError, fault.Bytes()), nil
}

// last returns the last call's request and body.
func (c *captureTransport) last() (*http.Request, []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls[len(c.calls)-1], c.body[len(c.body)-1]
}

// serverReads decodes a request envelope as the handler does, into a new value of req's type.
func serverReads(t *rapid.T, body []byte, req any) any {
	d := xml.NewDecoder(bytes.NewReader(body))
	start, err := openBody(d)
	if err != nil {
		t.Fatalf("envelope: %v\n%s", err, body)
	}
	v := reflect.New(reflect.TypeOf(req).Elem()).Interface()
	if err := d.DecodeElement(v, &start); err != nil {
		t.Fatalf("<%s>: %v\n%s", start.Name.Local, err, body)
	}
	if err := closeBody(d); err != nil {
		t.Fatalf("after <%s>: %v\n%s", start.Name.Local, err, body)
	}
	return v
}

// TestHotRequestMatchesGosoap: for random requests of the hot operations, the envelope callHot
// writes and the one gosoap writes decode, on the server, to the same request, and go out to
// the same address with the same SOAPAction, Content-Type and Authorization.
func TestHotRequestMatchesGosoap(t *testing.T) {
	const base = "http://soap.test"
	seller := &captureTransport{wsdl: sellerWSDL(base + "/elsewhere" + SellerServicePath)}
	intra := &captureTransport{wsdl: intraWSDL(base + "/elsewhere" + IntraClusterServicePath)}
	sellerCaller := newCaller(base+SellerServicePath, ClientOptions{HTTPClient: &http.Client{Transport: seller}, Token: "tok"})
	intraCaller := newCaller(base+IntraClusterServicePath, ClientOptions{HTTPClient: &http.Client{Transport: intra}})
	rapid.Check(t, func(t *rapid.T) {
		str := awkwardString()
		sellers := func() []string { return listOf(t, "sellers", str, 3) }
		var op string
		var req any
		c, capture := intraCaller, intra
		switch rapid.IntRange(0, 4).Draw(t, "op") {
		case 0:
			op, c, capture = OpGetTrips, sellerCaller, seller
			req = &GetTripsRequest{Src: str.Draw(t, "src"), Dst: str.Draw(t, "dst"), Date: str.Draw(t, "date"), Sellers: sellers(),
				MaxTrips: rapid.Int().Draw(t, "max"), Nonstop: rapid.Bool().Draw(t, "nonstop"), MaxPrice: str.Draw(t, "price"), Sort: str.Draw(t, "sort")}
		case 1:
			op, req = OpRelevantBySrc, &RelevantBySrcRequest{Src: str.Draw(t, "src"), Date: str.Draw(t, "date"), Sellers: sellers()}
		case 2:
			op, req = OpRelevantByDst, &RelevantByDstRequest{Dst: str.Draw(t, "dst"), Date: str.Draw(t, "date"), Sellers: sellers()}
		case 3:
			op = rapid.SampledFrom([]string{OpSendPrimarySeller, OpSendBackupSeller}).Draw(t, "role")
			req = &SendSellerRequest{SellerName: str.Draw(t, "seller"), Cursor: str.Draw(t, "cursor")}
		default:
			op, req = OpGetFlights, &GetFlightsRequest{Seller: str.Draw(t, "seller"), Flights: sellers()}
		}
		var viaGosoap, viaHot [2]any
		for i, call := range []func(context.Context, string, any, any) error{c.call, c.callHot} {
			var resp struct{}
			if err := call(context.Background(), op, req, &resp); !errors.As(err, new(*Fault)) || FaultKind(err) != "" {
				t.Fatalf("call %d: %v, want the transport's fault", i, err)
			}
			hreq, body := capture.last()
			if !strings.HasPrefix(hreq.URL.String(), base+"/elsewhere/") {
				t.Fatalf("call %d went to %s, not to the WSDL's address", i, hreq.URL)
			}
			headers := []string{hreq.Header.Get("SOAPAction"), hreq.Header.Get("Content-Type"), hreq.Header.Get("Authorization")}
			if i == 0 {
				viaGosoap = [2]any{serverReads(t, body, req), headers}
			} else {
				viaHot = [2]any{serverReads(t, body, req), headers}
			}
		}
		if !reflect.DeepEqual(viaGosoap, viaHot) {
			t.Fatalf("%s: through gosoap the server reads %+v, through callHot %+v", op, viaGosoap, viaHot)
		}
	})
}
