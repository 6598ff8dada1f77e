package soap

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
)

// callTransport is the http.RoundTripper of one call through gosoap. It serves gosoap's WSDL
// fetch from memory, attaches the call's context to the POST, caps the response body, and
// rewrites an HTTP error status that carries XML to 200: gosoap drops the body of any status
// >= 400, and a SOAP 1.1 fault comes with HTTP 500.
//
// A callTransport serves one call at a time (see conn), and gosoap runs the whole exchange on
// the caller's goroutine, so the fields need no lock.
type callTransport struct {
	base    http.RoundTripper
	wsdlURL string
	wsdl    []byte
	maxBody int64
	auth    func() string // the Authorization header's value now, or ""

	ctx  context.Context // of the current call
	seen exchange        // by the current call
}

func (t *callTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodGet && req.URL.String() == t.wsdlURL {
		return &http.Response{
			Status:        "200 OK",
			StatusCode:    http.StatusOK,
			Proto:         "HTTP/1.1",
			ProtoMajor:    1,
			ProtoMinor:    1,
			Header:        http.Header{"Content-Type": {"text/xml; charset=utf-8"}},
			Body:          io.NopCloser(bytes.NewReader(t.wsdl)),
			ContentLength: int64(len(t.wsdl)),
			Request:       req,
		}, nil
	}
	if t.ctx == nil {
		return nil, errors.New("soap: transport used outside a call") // a bug in this package
	}
	req = req.WithContext(t.ctx)
	if auth := t.auth(); auth != "" {
		req.Header = req.Header.Clone()
		req.Header.Set("Authorization", auth)
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		t.seen.err = err
		return nil, err
	}
	resp.Body = &cappedBody{r: resp.Body, left: t.maxBody, failed: &t.seen.err}
	if resp.StatusCode >= 400 && isXML(resp.Header.Get("Content-Type")) {
		t.seen.status = resp.StatusCode
		resp.StatusCode, resp.Status = http.StatusOK, "200 OK"
	} else if resp.StatusCode >= 300 {
		t.seen.status = resp.StatusCode
	}
	return resp, nil
}

func isXML(contentType string) bool {
	media, _, err := mime.ParseMediaType(contentType)
	return err == nil && (media == "text/xml" || media == "application/xml" || media == "application/soap+xml")
}

// cappedBody reads at most left bytes and fails with ErrResponseTooLarge beyond them, where
// io.LimitReader would end silently and leave a truncated document to be misread.
type cappedBody struct {
	r      io.ReadCloser
	left   int64
	failed *error // when set, receives ErrResponseTooLarge
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, b.tooLarge()
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return n + int(b.left), b.tooLarge()
	}
	return n, err
}

func (b *cappedBody) tooLarge() error {
	if b.failed != nil {
		*b.failed = ErrResponseTooLarge
	}
	return ErrResponseTooLarge
}

func (b *cappedBody) Close() error { return b.r.Close() }
