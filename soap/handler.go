package soap

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"flightalliance/soap/wsdl"
	"flightalliance/soap/xmlcodec"
)

// DefaultMaxRequestBody caps a request body when HandlerOptions.MaxBody is zero. Requests carry a
// few codes and dates; anything near this size is a mistake or an attack.
const DefaultMaxRequestBody = 1 << 20

// HandlerOptions configures NewHandler.
type HandlerOptions struct {
	// Address is the advertised base URL of the server, such as http://127.0.0.1:8101; the
	// WSDL's soap:address is Address+Path. Empty means the scheme and Host of each WSDL request,
	// which suits tests but trusts the caller's Host header.
	Address string
	// MaxBody caps the request body in bytes; 0 means DefaultMaxRequestBody.
	MaxBody int64
	// Tokens, when set, are required of every request as "Authorization: Bearer <a token it
	// accepts>": a request without one, or with another token, gets a Client fault (HTTP 401)
	// and nothing else. They may change while the handler serves (Tokens.Set).
	Tokens *Tokens
	// Logger receives one record per fault (Info for the caller's mistakes, Error for ours) and
	// one Debug record per call; nil discards.
	Logger *slog.Logger
}

// errNoResponse reports an operation that returned neither a response nor an error.
var errNoResponse = errors.New("operation returned no response and no error")

type handler struct {
	svc      Service
	ops      map[string]Operation
	declared []string // operations the WSDL declares
	address  string
	maxBody  int64
	tokens   *Tokens // nil: no token required
	log      *slog.Logger
}

// NewHandler serves svc: POST is a SOAP 1.1 call dispatched on the body element's local name,
// GET or HEAD with a "wsdl" query parameter (any case) is the WSDL. Every other request gets a
// SOAP fault: HTTP 405 for other methods, HTTP 500 otherwise.
//
// NewHandler panics, as http.ServeMux does for conflicting patterns, when two operations share
// a name, when an operation is not declared by the service's WSDL, or when the WSDL is invalid.
// An operation the WSDL declares but svc lacks answers a Server fault.
func NewHandler(svc Service, opts HandlerOptions) http.Handler {
	h := &handler{
		svc:     svc,
		ops:     make(map[string]Operation, len(svc.Ops)),
		address: strings.TrimSuffix(opts.Address, "/"),
		maxBody: opts.MaxBody,
		log:     opts.Logger,
		tokens:  opts.Tokens,
	}
	if h.maxBody <= 0 {
		h.maxBody = DefaultMaxRequestBody
	}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	h.log = h.log.With("service", svc.Name)
	if svc.WSDL != nil {
		doc, err := wsdl.Parse(svc.WSDL("http://localhost" + svc.Path))
		if err != nil {
			panic(fmt.Sprintf("soap: %s: %v", svc.Name, err))
		}
		h.declared = doc.Operations()
	}
	for _, op := range svc.Ops {
		if _, dup := h.ops[op.name]; dup {
			panic(fmt.Sprintf("soap: %s: operation %q given twice", svc.Name, op.name))
		}
		if svc.WSDL != nil && !slices.Contains(h.declared, op.name) {
			panic(fmt.Sprintf("soap: %s: operation %q is not declared by its WSDL (%s)", svc.Name, op.name, strings.Join(h.declared, ", ")))
		}
		h.ops[op.name] = op
	}
	return h
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.tokens != nil {
		if f := h.tokens.check(r.Header.Get("Authorization")); f != nil {
			w.Header().Set("WWW-Authenticate", `Bearer realm="`+h.svc.Name+`"`)
			h.fault(w, r, http.StatusUnauthorized, "", f)
			return
		}
	}
	switch r.Method {
	case http.MethodPost:
		h.serveCall(w, r)
	case http.MethodGet, http.MethodHead:
		h.serveWSDL(w, r)
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		h.fault(w, r, http.StatusMethodNotAllowed, "", ClientFault("method %s: POST a SOAP envelope, or GET ?wsdl", r.Method))
	}
}

func (h *handler) serveWSDL(w http.ResponseWriter, r *http.Request) {
	if !wantsWSDL(r) {
		h.fault(w, r, http.StatusNotFound, "", ClientFault("GET %s serves only the WSDL: add ?wsdl", r.URL.Path))
		return
	}
	if h.svc.WSDL == nil {
		h.fault(w, r, http.StatusNotFound, "", ClientFault("%s has no WSDL", h.svc.Name))
		return
	}
	address := h.address
	if address == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		address = scheme + "://" + r.Host
	}
	writeXML(w, http.StatusOK, h.svc.WSDL(address+h.svc.Path))
}

func wantsWSDL(r *http.Request) bool {
	for key := range r.URL.Query() {
		if strings.EqualFold(key, "wsdl") {
			return true
		}
	}
	return false
}

func (h *handler) serveCall(w http.ResponseWriter, r *http.Request) {
	began := time.Now()
	if f := checkContentType(r.Header.Get("Content-Type")); f != nil {
		h.fault(w, r, http.StatusInternalServerError, "", f)
		return
	}
	track := &lastElement{d: xml.NewDecoder(http.MaxBytesReader(w, r.Body, h.maxBody))}
	d := xml.NewTokenDecoder(track)
	start, err := openBody(d)
	if err != nil {
		h.fault(w, r, readStatus(err), "", h.requestFault(err, "the envelope"))
		return
	}
	name := start.Name.Local
	op, ok := h.ops[name]
	if !ok {
		h.fault(w, r, http.StatusInternalServerError, name, h.unknown(name))
		return
	}
	if action := strings.Trim(r.Header.Get("SOAPAction"), `"`); action != "" && !strings.HasSuffix(action, name) {
		h.log.Debug("SOAPAction does not name the body element; dispatching on the body", "op", name, "soapaction", action)
	}
	call, err := op.decode(d, &start)
	if err != nil {
		f := track.conversionFault(err)
		if f == nil {
			f = h.requestFault(err, "<"+name+">")
		}
		h.fault(w, r, readStatus(err), name, f)
		return
	}
	if err := closeBody(d); err != nil {
		h.fault(w, r, readStatus(err), name, h.requestFault(err, "the envelope"))
		return
	}
	resp, err := h.invoke(r.Context(), name, call)
	if err != nil {
		h.fault(w, r, http.StatusInternalServerError, name, h.operationFault(name, err))
		return
	}
	body, err := h.encode(name+"Response", resp)
	if err != nil {
		h.log.Error("cannot encode the response", "op", name, "err", err)
		h.fault(w, r, http.StatusInternalServerError, name, ServerFault("%s: cannot encode the response", name))
		return
	}
	writeXML(w, http.StatusOK, *body)
	h.log.Debug("soap call", "op", name, "remote", r.RemoteAddr, "bytes", len(*body), "duration", time.Since(began))
	xmlcodec.PutBuffer(body)
}

// invoke runs an operation, turning a panic into an error: a bad request must not take the
// server down.
func (h *handler) invoke(ctx context.Context, name string, call func(context.Context) (any, error)) (resp any, err error) {
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			h.log.Error("operation panicked", "op", name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			resp, err = nil, ServerFault("%s: internal error", name)
		}
	}()
	return call(ctx)
}

// checkContentType accepts the media type of SOAP 1.1 (text/xml), and application/xml, in UTF-8.
func checkContentType(value string) *Fault {
	if value == "" {
		return ClientFault("missing Content-Type: want text/xml; charset=utf-8")
	}
	media, params, err := mime.ParseMediaType(value)
	if err != nil {
		return ClientFault("Content-Type %q: %v", value, err)
	}
	if media == "application/soap+xml" {
		return &Fault{Code: CodeVersionMismatch, String: "Content-Type application/soap+xml is SOAP 1.2: this service speaks SOAP 1.1 (text/xml)"}
	}
	if media != "text/xml" && media != "application/xml" {
		return ClientFault("Content-Type %q: want text/xml", value)
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") && !strings.EqualFold(cs, "utf8") {
		return ClientFault("Content-Type charset %q: want utf-8", cs)
	}
	return nil
}

func writeXML(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
