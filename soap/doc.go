// Package soap is the SOAP 1.1 edge of an airline server: the wire types of SellerService and
// IntraClusterService, their WSDL documents, a server-side handler that decodes envelopes and
// dispatches to typed operations, and typed clients built on github.com/tiaguinho/gosoap.
//
// Server side, NewHandler turns a Service (a set of operations made with Op) into an
// http.Handler: POST carries a call, GET ?wsdl returns the WSDL whose soap:address is the
// advertised URL. Whatever a caller sends — malformed, oversized, unknown — it gets a SOAP Fault,
// never a crash or a hang; a panicking operation becomes a Server fault.
//
// Client side, SellerClient and IntraClient are made once per remote machine and shared; every
// call is bounded by its context and by ClientOptions.Timeout, caps the response size, and
// reports a remote fault as a *Fault. gosoap itself takes no context: the client's transport
// attaches the call's context to gosoap's HTTP request, so cancelling it (or the timeout) aborts
// the exchange at once and the call returns an error wrapping the context's error.
//
// The hot messages — getTrips, getRelevantFlightsBySrc/ByDst, getFlights and the paged seller
// transfer — have a codec of their own: the handler writes their answers with a hand-written
// encoder that produces encoding/xml's bytes (codec_encode.go), and the client sends those calls
// without gosoap (codec_request.go, client_hot.go) and reads their answers in one pass
// (codec_decode.go), leaving to encoding/xml only what its fast decoder does not accept (faults,
// refusals, unusual XML). Those files are a thin layer: they map the hot types and the SOAP
// envelope onto package soap/xmlcodec, the type-agnostic engine (scanner, escaping, leaf values,
// buffer pool), which knows XML and nothing of SOAP. Fuzz and property tests hold the engine to
// encoding/xml's behaviour (in xmlcodec) and the layer too, type by type (codec_*_test.go).
//
// This package must not know the domain: it validates envelopes, not airports, dates or
// prices (the airline server does that), and it imports only the standard library, gosoap and
// its own xmlcodec.
package soap
