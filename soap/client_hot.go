package soap

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/tiaguinho/gosoap"

	"flightalliance/soap/xmlcodec"
)

// callHot is call for the hot operations — getTrips, getRelevantFlightsBySrc/ByDst,
// getFlights, sendPrimarySeller/sendBackupSeller — without gosoap: it writes the request
// itself, POSTs it where gosoap would, and decodes the answer in one pass (decodeEnvelope).
//
// Why gosoap is bypassed here rather than kept for the request: gosoap reads a whole answer
// with encoding/xml to cut out soap:Body's inner XML, which decodeResponse then decodes again —
// two slow passes over answers of a megabyte (a 2,500-trip answer: about 60 ms and 700,000
// allocations; one pass of the fast decoder: about 2 ms and 3,700). Keeping gosoap for the
// request would mean taking the answer from under it in the transport and feeding it a
// stand-in envelope to decode, to keep what costs a small call most: gosoap builds every
// request by reflection and token encoding, and a call through it is about 1.4 times as slow
// and allocates twice as much as a call without it, server included (BenchmarkCallOverhead:
// ~100 µs and ~450 allocations against ~70 µs and ~240). And nothing gosoap brings is lost:
// the request is the one gosoap writes from the same parameters (toParams; same elements,
// namespace and SOAPAction, read from the WSDL as gosoap reads them; TestHotRequestMatchesGosoap
// checks that a server decodes the same request from both), the WSDL is fetched and checked as
// before (definitions), and a fault (HTTP 500, 401 or 413 with XML), another error status, the
// size cap, the timeout and the context end a call as they end one through gosoap. The calls
// that are not hot (bookings) still go through gosoap.
func (c *caller) callHot(ctx context.Context, op string, req, resp any) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	params, rm, err := c.prepare(ctx, op, req)
	if err != nil {
		return err
	}
	if !rm.wsdl.HasOperation(op) {
		return fmt.Errorf("soap %s %s: %w", op, c.serviceURL, ErrUnknownOperation)
	}
	hresp, err := c.post(ctx, rm, op, params)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("soap %s %s: %w", op, c.serviceURL, context.Cause(ctx))
		}
		c.wsdl.Store(nil) // the remote may have moved or restarted: read its WSDL again
		return fmt.Errorf("soap %s %s: %w", op, c.serviceURL, err)
	}
	defer hresp.Body.Close()
	// A SOAP 1.1 fault comes with HTTP 500 (and this package's with 401 or 413 too): an error
	// status with XML is read for its fault; any other status but 2xx is the error.
	status := hresp.StatusCode
	faulted := status >= 400 && isXML(hresp.Header.Get("Content-Type"))
	if !faulted && (status < 200 || status > 299) {
		return fmt.Errorf("soap %s %s: HTTP status %d", op, c.serviceURL, status)
	}
	raw, err := readBody(hresp.Body, c.maxBody, hresp.ContentLength)
	switch {
	case err != nil && ctx.Err() != nil:
		return fmt.Errorf("soap %s %s: %w", op, c.serviceURL, context.Cause(ctx))
	case errors.Is(err, ErrResponseTooLarge):
		return fmt.Errorf("soap %s %s: %w (%d bytes)", op, c.serviceURL, err, c.maxBody)
	case err != nil:
		return fmt.Errorf("soap %s %s: %w", op, c.serviceURL, err)
	}
	err = decodeEnvelope(*raw, op+"Response", resp)
	xmlcodec.PutBuffer(raw) // nothing decoded points into it
	var f *Fault
	switch {
	case errors.As(err, &f):
		return f
	case err != nil && faulted:
		return fmt.Errorf("soap %s %s: HTTP status %d: %w", op, c.serviceURL, status, err)
	case err != nil:
		return fmt.Errorf("soap %s %s: %w", op, c.serviceURL, err)
	case faulted:
		return fmt.Errorf("soap %s %s: %w: HTTP status %d with a response that is no fault", op, c.serviceURL, ErrBadResponse, status)
	}
	return nil
}

// post sends the request envelope of op to the WSDL's address with the headers gosoap sends.
// The caller closes the response body.
func (c *caller) post(ctx context.Context, rm *remote, op string, params gosoap.ArrayParams) (*http.Response, error) {
	// Not pooled: a transport may still read a request body after RoundTrip has returned.
	body := appendRequestEnvelope(make([]byte, 0, 512), op, rm.namespace, params)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rm.address, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header = http.Header{
		"Content-Type": {"text/xml;charset=UTF-8"},
		"Accept":       {"text/xml"},
		"Soapaction":   {rm.wsdl.SoapAction(op)},
	}
	if auth := c.authorization(); auth != "" {
		req.Header.Set("Authorization", auth)
	}
	return c.transport.RoundTrip(req)
}

// maxPrealloc bounds the buffer allocated for a body on the word of its Content-Length alone.
const maxPrealloc = 4 << 20

// readBody reads a response body whole into a pooled buffer (xmlcodec.PutBuffer it when done), failing
// with ErrResponseTooLarge beyond limit bytes. size is the announced Content-Length, or -1.
func readBody(r io.ReadCloser, limit, size int64) (*[]byte, error) {
	p := xmlcodec.GetBuffer()
	b := *p
	if size >= 0 && size <= limit && int(size) >= cap(b) {
		// +1: room to see the end of the body without growing. An announced size is trusted up
		// to maxPrealloc at first: a larger one only once that much has arrived (below).
		xmlcodec.PutBuffer(p)
		b = make([]byte, 0, min(size+1, maxPrealloc))
		p = &b
	}
	body := &cappedBody{r: r, left: limit}
	for {
		if len(b) == cap(b) {
			if size > int64(len(b)) && size <= limit && len(b) >= maxPrealloc {
				// The peer has sent maxPrealloc bytes of what it announced: take it at its word
				// for the rest rather than doubling (growing to a 17 MB answer by doubling copies
				// it about twice). A peer must send that much to make this buffer grow.
				b = append(make([]byte, 0, size+1), b...)
			} else {
				b = append(b, 0)[:len(b)]
			}
		}
		n, err := body.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			*p = b
			return p, nil
		}
		if err != nil {
			*p = b
			xmlcodec.PutBuffer(p)
			return nil, err
		}
	}
}
