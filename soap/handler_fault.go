package soap

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
)

// unknown is the fault for a body element that names no operation of this handler.
func (h *handler) unknown(name string) *Fault {
	if slices.Contains(h.declared, name) {
		return ServerFault("operation %s is not implemented by this server", name)
	}
	known := make([]string, 0, len(h.ops))
	for n := range h.ops {
		known = append(known, n)
	}
	slices.Sort(known)
	return ClientFault("unknown operation <%s>: %s has %s", name, h.svc.Name, strings.Join(known, ", "))
}

// requestFault describes an error met while reading the request.
func (h *handler) requestFault(err error, where string) *Fault {
	var f *Fault
	var tooBig *http.MaxBytesError
	var syntax *xml.SyntaxError
	switch {
	case errors.As(err, &f):
		return f
	case errors.As(err, &tooBig):
		return ClientFault("request body exceeds %d bytes", tooBig.Limit)
	case errors.Is(err, errEmptyBody):
		return ClientFault("empty request body: POST a SOAP envelope")
	case errors.As(err, &syntax):
		return ClientFault("malformed XML in %s: line %d: %s", where, syntax.Line, syntax.Msg)
	default:
		return ClientFault("cannot read %s: %v", where, err)
	}
}

// readStatus is the HTTP status of a fault met while reading the request: 413 for a body over
// the limit, 500 (SOAP 1.1's status for faults) otherwise.
func readStatus(err error) int {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusInternalServerError
}

// operationFault maps an operation's error to the fault the caller sees: a *Fault as it is,
// anything else as a Server fault that names the operation and nothing more.
func (h *handler) operationFault(name string, err error) *Fault {
	var f *Fault
	if errors.As(err, &f) {
		return f
	}
	h.log.Error("operation failed", "op", name, "err", err)
	return ServerFault("%s failed on the server", name)
}

// fault logs f and answers it as a SOAP fault envelope with the given HTTP status.
func (h *handler) fault(w http.ResponseWriter, r *http.Request, status int, op string, f *Fault) {
	level := slog.LevelInfo
	if f.Code == CodeServer {
		level = slog.LevelError
	}
	h.log.Log(r.Context(), level, "soap fault", "op", op, "remote", r.RemoteAddr, "status", status, "code", f.Code, "fault", f.String)
	// The request's body may be partly unread (too large, too deep, refused before reading). A
	// server that answers and closes at once makes the client's kernel reset the connection
	// while it still sends, and the answer is lost. So the answer goes out first, then a bounded
	// amount of the body is read and dropped; only a body larger than that is cut off.
	rc := http.NewResponseController(w)
	_ = rc.EnableFullDuplex()
	var buf bytes.Buffer
	writeFaultEnvelope(&buf, f)
	writeXML(w, status, buf.Bytes())
	_ = rc.Flush()
	if r.Body != nil {
		_, _ = io.CopyN(io.Discard, r.Body, drainLimit)
	}
}

// drainLimit is how much of a refused request's body is read before the connection is closed.
const drainLimit = 16 << 20
