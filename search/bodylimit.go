package search

import (
	"io"
	"net/http"
)

// maxBodyBytes bounds every request body; no route of this server needs more.
const maxBodyBytes = 64 << 10

// drainLimit is how much of a refused request's unread body is read, after the answer went out,
// before the connection is closed.
const drainLimit = 8 << 20

// limitBody bounds every request body to n bytes: a handler reading more gets an
// *http.MaxBytesError (and answers 413). A refusal (status 400 or more) of a request whose body
// is not all read — too large, too deep, unauthorized before reading — is answered so that the
// client can read it: the answer goes out first with "Connection: close", then up to drainLimit
// bytes of the body are read and dropped, and only then is the connection closed. A server that
// closed at once would have the client's kernel reset the connection while the client still
// sends, and the client would lose the answer.
func limitBody(n int64) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Body == nil || r.Body == http.NoBody {
				next.ServeHTTP(w, r)
				return
			}
			body := &limitedBody{rc: r.Body, left: n, limit: n}
			r.Body = body
			g := &refusalGuard{ResponseWriter: w, r: r, body: body}
			next.ServeHTTP(g, r)
			if g.drain {
				_ = http.NewResponseController(w).Flush()
				_, _ = io.CopyN(io.Discard, body.rc, drainLimit)
			}
		})
	}
}

// limitedBody is http.MaxBytesReader, but keeps the body underneath readable (for the drain)
// and knows whether the body was read to its end.
type limitedBody struct {
	rc          io.ReadCloser
	left, limit int64
	read        int64
	eof         bool
	err         error
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1] // one byte more than allowed tells "too large" from "exactly the limit"
	}
	n, err := b.rc.Read(p)
	b.read += int64(n)
	if int64(n) > b.left {
		n, b.left = int(b.left), 0
		b.err = &http.MaxBytesError{Limit: b.limit}
		return n, b.err
	}
	b.left -= int64(n)
	if err == io.EOF {
		b.eof = true
	}
	if err != nil {
		b.err = err
	}
	return n, err
}

func (b *limitedBody) Close() error { return b.rc.Close() }

// consumed reports whether the whole body has been read.
func (b *limitedBody) consumed(contentLength int64) bool {
	return b.eof || (contentLength > 0 && b.read >= contentLength)
}

// refusalGuard sees the status of the answer: a refusal of a request with an unread HTTP/1 body
// is sent full duplex with "Connection: close", and the body is drained after the handler.
type refusalGuard struct {
	http.ResponseWriter
	r     *http.Request
	body  *limitedBody
	wrote bool
	drain bool
}

func (g *refusalGuard) WriteHeader(status int) {
	if !g.wrote {
		g.wrote = true
		if status >= 400 && g.r.ProtoMajor == 1 && !g.body.consumed(g.r.ContentLength) {
			// Without full duplex, net/http would itself discard or refuse the unread body before
			// the answer goes out; HTTP/2 needs neither (a stream is reset on its own).
			if http.NewResponseController(g.ResponseWriter).EnableFullDuplex() == nil {
				g.drain = true
			}
			g.Header().Set("Connection", "close")
		}
	}
	g.ResponseWriter.WriteHeader(status)
}

func (g *refusalGuard) Write(b []byte) (int, error) {
	if !g.wrote {
		g.WriteHeader(http.StatusOK)
	}
	return g.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (g *refusalGuard) Unwrap() http.ResponseWriter { return g.ResponseWriter }
