package soap

import (
	"context"
	"fmt"
	"net/http"

	"github.com/tiaguinho/gosoap"
)

// conn is a gosoap.Client lent to one call at a time. gosoap parses the WSDL on a client's first
// call — about 100 µs, most of a small call's cost — so idle conns are kept in caller.conns and
// reused while the WSDL they parsed is still the caller's current one.
type conn struct {
	doc *remote // the WSDL gc parsed; compared by identity with caller.wsdl
	gc  *gosoap.Client
	t   *callTransport
}

// conn returns an idle conn for the WSDL doc, or a new one.
func (c *caller) conn(doc *remote) (*conn, error) {
	for {
		cn, ok := c.conns.Get().(*conn)
		if !ok {
			break
		}
		if cn.doc == doc {
			return cn, nil
		}
		// Parsed from an older WSDL: let it go.
	}
	t := &callTransport{base: c.transport, wsdlURL: c.wsdlURL, wsdl: doc.doc, maxBody: c.maxBody, auth: c.authorization}
	gc, err := gosoap.SoapClientWithConfig(c.wsdlURL, &http.Client{Transport: t}, &gosoap.Config{})
	if err != nil {
		return nil, fmt.Errorf("gosoap client: %w", err)
	}
	return &conn{doc: doc, gc: gc, t: t}, nil
}

// exchange is what a callTransport saw of one call.
type exchange struct {
	err    error // the exchange failed: a transport error or ErrResponseTooLarge
	status int   // the HTTP error status rewritten to 200, if any
}

// begin binds the transport to a call's context.
func (t *callTransport) begin(ctx context.Context) { t.ctx, t.seen = ctx, exchange{} }

// end unbinds the transport and returns what it saw.
func (t *callTransport) end() exchange {
	seen := t.seen
	t.ctx, t.seen = nil, exchange{}
	return seen
}
