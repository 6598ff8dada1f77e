package soap

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tiaguinho/gosoap"

	"flightalliance/soap/wsdl"
)

// Client defaults, used when ClientOptions leaves a field zero.
const (
	DefaultTimeout         = 10 * time.Second
	DefaultMaxResponseBody = 32 << 20
)

// Errors a caller may branch on. A fault answered by the remote side is a *Fault instead, and a
// call cut short by its context wraps the context's error.
var (
	ErrResponseTooLarge = errors.New("response body exceeds the client's limit")
	ErrBadResponse      = errors.New("unexpected SOAP response")
	// ErrUnknownOperation: the remote's WSDL lists no such operation (a machine older than it),
	// so no call was made.
	ErrUnknownOperation = errors.New("the remote's WSDL has no such operation")
	// ErrBadWSDL: the remote's WSDL cannot drive a call (not XML, or missing the binding,
	// service, port or soap:address a client needs), so no call was made.
	ErrBadWSDL = wsdl.ErrUnusable
)

// ClientOptions configures SellerClient and IntraClient.
type ClientOptions struct {
	// Timeout bounds each call, the WSDL fetch included, on top of the context's own deadline.
	// Zero means HTTPClient.Timeout when that is set, else DefaultTimeout.
	Timeout time.Duration
	// MaxBody caps a response body (and the WSDL) in bytes; 0 means DefaultMaxResponseBody.
	MaxBody int64
	// HTTPClient lends its Transport (connection pool, TLS settings); its other fields are not
	// used. Nil means a transport of the client's own.
	HTTPClient *http.Client
	// Token, when set, is sent with every request as "Authorization: Bearer <Token>" (the
	// alliance's token, which the IntraClusterService requires).
	Token string
	// Tokens, when set, are a machine's tokens, which may change while it runs: every request
	// carries the one they send then (Tokens.Send), instead of Token.
	Tokens *Tokens
}

// caller is the machinery SellerClient and IntraClient share: one remote service, its WSDL, and
// two ways to call it: call, through gosoap, for the operations that are not hot (bookings), and
// callHot (client_hot.go), which writes the request itself and decodes the answer in one pass,
// for the hot ones (getTrips, getRelevantFlightsBy*, getFlights, send*Seller).
//
// gosoap's Client has no context, fetches the WSDL once and keeps a failed fetch forever, and
// shares one http.Client among concurrent calls. So caller fetches and checks the WSDL itself
// (with the call's context, keeping only a good one), and lends each call a gosoap.Client of its
// own (see conn) whose transport attaches the call's context to the POST: cancelling the context
// or reaching the timeout aborts the HTTP exchange at once, and no goroutine outlives the call.
type caller struct {
	serviceURL string
	wsdlURL    string
	urlErr     error
	timeout    time.Duration
	maxBody    int64
	auth       string  // "Bearer " + ClientOptions.Token, or ""
	tokens     *Tokens // ClientOptions.Tokens; nil: auth
	transport  http.RoundTripper
	wsdl       atomic.Pointer[remote] // the last good WSDL; nil until fetched, or after a transport error
	conns      sync.Pool              // of *conn, idle
}

// authorization is the Authorization header a request carries now ("": none).
func (c *caller) authorization() string {
	if c.tokens != nil {
		return c.tokens.Authorization()
	}
	return c.auth
}

func newCaller(serviceURL string, opts ClientOptions) *caller {
	c := &caller{serviceURL: serviceURL, timeout: opts.Timeout, maxBody: opts.MaxBody, tokens: opts.Tokens}
	if opts.Token != "" {
		c.auth = "Bearer " + opts.Token
	}
	if c.maxBody <= 0 {
		c.maxBody = DefaultMaxResponseBody
	}
	if opts.HTTPClient != nil {
		c.transport = opts.HTTPClient.Transport
		if c.timeout <= 0 {
			c.timeout = opts.HTTPClient.Timeout
		}
	}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	if c.transport == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 32
		c.transport = t
	}
	u, err := url.Parse(serviceURL)
	switch {
	case err != nil:
		c.urlErr = fmt.Errorf("soap: service URL %q: %w", serviceURL, err)
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		c.urlErr = fmt.Errorf("soap: service URL %q: want http://host:port/path", serviceURL)
	default:
		if u.RawQuery == "" {
			u.RawQuery = "wsdl"
		} else {
			u.RawQuery += "&wsdl"
		}
		c.wsdlURL = u.String()
	}
	return c
}

// prepare is what every call does first, within ctx (the call's deadline): turn req into
// gosoap's parameters and get the remote's WSDL.
func (c *caller) prepare(ctx context.Context, op string, req any) (gosoap.ArrayParams, *remote, error) {
	if c.urlErr != nil {
		return nil, nil, c.urlErr
	}
	params, err := toParams(req)
	if err != nil {
		return nil, nil, fmt.Errorf("soap %s: %w", op, err)
	}
	doc, err := c.definitions(ctx)
	if err != nil && ctx.Err() != nil {
		return nil, nil, fmt.Errorf("soap %s %s: fetch WSDL: %w", op, c.serviceURL, context.Cause(ctx))
	}
	if err != nil {
		return nil, nil, fmt.Errorf("soap %s %s: %w", op, c.serviceURL, err)
	}
	return params, doc, nil
}

// call sends req as the operation op and decodes the op+"Response" element into resp.
func (c *caller) call(ctx context.Context, op string, req, resp any) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	params, doc, err := c.prepare(ctx, op, req)
	if err != nil {
		return err
	}
	cn, err := c.conn(doc)
	if err != nil {
		return fmt.Errorf("soap %s %s: %w", op, c.serviceURL, err)
	}
	cn.t.begin(ctx)
	res, err := cn.gc.Call(op, params)
	t := cn.t.end()
	c.conns.Put(cn)
	if err != nil {
		return c.callError(ctx, op, t, err)
	}
	if err := decodeResponse(res.Body, op+"Response", resp); err != nil {
		var f *Fault
		if errors.As(err, &f) {
			return f
		}
		return fmt.Errorf("soap %s %s: %w", op, c.serviceURL, err)
	}
	if t.status != 0 {
		return fmt.Errorf("soap %s %s: %w: HTTP status %d with a response that is no fault", op, c.serviceURL, ErrBadResponse, t.status)
	}
	return nil
}

// callError explains why gosoap failed, from what the call's transport saw: gosoap's own errors
// do not unwrap, so the context's error, a transport error or ErrResponseTooLarge is taken from
// there.
func (c *caller) callError(ctx context.Context, op string, t exchange, err error) error {
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("soap %s %s: %w", op, c.serviceURL, context.Cause(ctx))
	case errors.Is(t.err, ErrResponseTooLarge):
		return fmt.Errorf("soap %s %s: %w (%d bytes)", op, c.serviceURL, t.err, c.maxBody)
	case t.err != nil:
		c.wsdl.Store(nil) // the remote may have moved or restarted: read its WSDL again
		return fmt.Errorf("soap %s %s: %w", op, c.serviceURL, t.err)
	case t.status != 0:
		return fmt.Errorf("soap %s %s: HTTP status %d", op, c.serviceURL, t.status)
	default:
		return fmt.Errorf("soap %s %s: %v", op, c.serviceURL, err)
	}
}

// remote is a WSDL the caller holds, with what a call needs of it, read as gosoap reads it.
type remote struct {
	doc       []byte
	address   string // where calls are POSTed: the first port's soap:address
	namespace string // the body element's namespace: the first schema's targetNamespace
	wsdl      *wsdl.Doc
}

// definitions returns the remote's WSDL, fetching it when none is held. Only a WSDL that
// parses and can drive gosoap is kept, so a failed fetch is retried by the next call.
func (c *caller) definitions(ctx context.Context) (*remote, error) {
	if doc := c.wsdl.Load(); doc != nil {
		return doc, nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.wsdlURL, nil)
	if err != nil {
		return nil, fmt.Errorf("fetch WSDL: %w", err)
	}
	if auth := c.authorization(); auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := c.transport.RoundTrip(req)
	if err != nil {
		return nil, fmt.Errorf("fetch WSDL %s: %w", c.wsdlURL, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		if f := readFault(resp, c.maxBody); f != nil {
			return nil, fmt.Errorf("fetch WSDL %s: HTTP status %s: %w", c.wsdlURL, resp.Status, f)
		}
		return nil, fmt.Errorf("fetch WSDL %s: HTTP status %s", c.wsdlURL, resp.Status)
	}
	doc, err := io.ReadAll(&cappedBody{r: resp.Body, left: c.maxBody})
	if err != nil {
		return nil, fmt.Errorf("fetch WSDL %s: %w", c.wsdlURL, err)
	}
	w, err := wsdl.Parse(doc)
	if err != nil {
		return nil, fmt.Errorf("fetch WSDL %s: %w", c.wsdlURL, err)
	}
	r := &remote{doc: doc, address: w.Address(), namespace: w.Namespace(), wsdl: w}
	c.wsdl.Store(r)
	return r, nil
}

// decodeResponse decodes the inner XML of a response's soap:Body: a soap:Fault becomes a *Fault,
// the element want is decoded into v, anything else is ErrBadResponse.
func decodeResponse(body []byte, want string, v any) error {
	d := xml.NewDecoder(bytes.NewReader(body))
	start, err := nextElement(d)
	switch {
	case errors.Is(err, io.EOF):
		return fmt.Errorf("%w: empty soap:Body, want <%s>", ErrBadResponse, want)
	case err != nil:
		return fmt.Errorf("%w: %v", ErrBadResponse, err)
	}
	switch start.Name.Local {
	case "Fault":
		var wf wireFault
		if err := d.DecodeElement(&wf, &start); err != nil {
			return fmt.Errorf("%w: soap:Fault: %v", ErrBadResponse, err)
		}
		return &Fault{Code: wf.Code, String: wf.String, Detail: wf.Detail}
	case want:
		if err := d.DecodeElement(v, &start); err != nil {
			return fmt.Errorf("%w: <%s>: %v", ErrBadResponse, want, err)
		}
		return nil
	default:
		return fmt.Errorf("%w: got <%s>, want <%s>", ErrBadResponse, start.Name.Local, want)
	}
}

// readFault decodes the SOAP fault an error response carries, or returns nil.
func readFault(resp *http.Response, maxBody int64) *Fault {
	if !isXML(resp.Header.Get("Content-Type")) {
		return nil
	}
	raw, err := io.ReadAll(&cappedBody{r: resp.Body, left: maxBody})
	if err != nil {
		return nil
	}
	var env struct {
		Body struct {
			Inner []byte `xml:",innerxml"`
		} `xml:"Body"`
	}
	if xml.Unmarshal(raw, &env) != nil {
		return nil
	}
	var f *Fault
	if errors.As(decodeResponse(env.Body.Inner, "", nil), &f) {
		return f
	}
	return nil
}
