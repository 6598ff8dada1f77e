package soap

import (
	"bytes"
	"context"
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

// FuzzDecode feeds arbitrary bodies to the IntraClusterService handler (seeds in
// testdata/fuzz/FuzzDecode). Whatever comes in, the handler must not panic or hang, must answer
// HTTP 200 or 500 with a well-formed envelope, a fault only for the caller's mistakes, and a
// response whose content is what the operation returned, as encoding/xml and the client's
// one-pass decoder (decodeEnvelope) both read it. The client's response decoder gets the same
// bytes and must not panic either.
func FuzzDecode(f *testing.F) {
	echo := func(_ context.Context, req *RelevantBySrcRequest) (*RelevantFlightsResponse, error) {
		return echoed(req.Src, req.Date, req.Sellers), nil
	}
	echoDst := func(_ context.Context, req *RelevantByDstRequest) (*RelevantFlightsResponse, error) {
		return echoed(req.Dst, req.Date, req.Sellers), nil
	}
	page := func(_ context.Context, req *SendSellerRequest) (*SellerPage, error) {
		return &SellerPage{Seller: req.SellerName, Version: "v1", NextCursor: req.Cursor}, nil
	}
	h := NewHandler(IntraClusterService(
		Op(OpRelevantBySrc, echo), Op(OpRelevantByDst, echoDst),
		Op(OpSendPrimarySeller, page), Op(OpSendBackupSeller, page),
	), HandlerOptions{Address: "http://127.0.0.1:8101", MaxBody: 64 << 10})

	f.Fuzz(func(t *testing.T, body []byte) {
		_ = decodeResponse(body, OpRelevantBySrc+"Response", &RelevantFlightsResponse{})

		req := httptest.NewRequest(http.MethodPost, IntraClusterServicePath, bytes.NewReader(body))
		req.Header.Set("Content-Type", "text/xml; charset=utf-8")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)

		var env struct {
			Body struct {
				Inner []byte `xml:",innerxml"`
			} `xml:"http://schemas.xmlsoap.org/soap/envelope/ Body"`
		}
		if err := xml.Unmarshal(rec.Body.Bytes(), &env); err != nil {
			t.Fatalf("HTTP %d answer is no envelope: %v\n%s", rec.Code, err, rec.Body.Bytes())
		}
		switch rec.Code {
		case http.StatusInternalServerError:
			f := asFault(t, decodeResponse(env.Body.Inner, "", nil))
			// The handler here implements some of the service's operations: a call of another
			// one is the server's gap, a Server fault saying so.
			notHere := f.Code == CodeServer && strings.HasSuffix(f.String, "is not implemented by this server")
			if (f.Code == CodeServer && !notHere) || f.String == "" {
				t.Fatalf("fault %s %q for a request", f.Code, f.String)
			}
		case http.StatusOK:
			checkEcho(t, body, env.Body.Inner, rec.Body.Bytes())
		default:
			t.Fatalf("HTTP %d", rec.Code)
		}
	})
}

func echoed(place, date string, sellers []string) *RelevantFlightsResponse {
	return &RelevantFlightsResponse{Sellers: sellers, Flights: []Flight{{Src: place, Departure: date}}}
}

// checkEcho decodes the request again, independently of the handler, and checks that the
// answer a client decodes is exactly what the operation returned for it: strings survive
// decoding, encoding and decoding again.
func checkEcho(t *testing.T, body, inner, answer []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(body))
	start, err := openBody(d)
	if err != nil {
		t.Fatalf("HTTP 200 for a request whose envelope does not open: %v", err)
	}
	var want, got any
	switch op := start.Name.Local; op {
	case OpRelevantBySrc:
		var req RelevantBySrcRequest
		err = d.DecodeElement(&req, &start)
		want, got = echoed(req.Src, req.Date, req.Sellers), &RelevantFlightsResponse{}
	case OpRelevantByDst:
		var req RelevantByDstRequest
		err = d.DecodeElement(&req, &start)
		want, got = echoed(req.Dst, req.Date, req.Sellers), &RelevantFlightsResponse{}
	case OpSendPrimarySeller, OpSendBackupSeller:
		var req SendSellerRequest
		err = d.DecodeElement(&req, &start)
		want, got = &SellerPage{Seller: req.SellerName, Version: "v1", NextCursor: req.Cursor}, &SellerPage{}
	default:
		t.Fatalf("HTTP 200 for operation <%s>", op)
	}
	if err != nil {
		t.Fatalf("HTTP 200 for a request that does not decode: %v", err)
	}
	if err := decodeResponse(inner, start.Name.Local+"Response", got); err != nil {
		t.Fatalf("client cannot decode the answer: %v", err)
	}
	if !reflect.DeepEqual(clearNames(got), want) {
		t.Fatalf("client decoded %+v, operation returned %+v", got, want)
	}
	again := reflect.New(reflect.TypeOf(got).Elem()).Interface()
	if err := decodeEnvelope(answer, start.Name.Local+"Response", again); err != nil || !reflect.DeepEqual(again, got) {
		t.Fatalf("decodeEnvelope: %v, %+v; encoding/xml decoded %+v", err, again, got)
	}
}
