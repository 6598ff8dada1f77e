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
// The WSDL documents are written and read back by package soap/wsdl, which knows WSDL 1.1 and
// nothing of these services: this package gives it the services' names, operations and schemas
// (service.go, wsdl_schema.go, held to the Go types by wsdl_schema_test.go).
//
// Why this package stays one of some thirty files, past the project's ~20: its parts share what
// cannot be cut apart without noise. The hot codec reads and writes the wire types, which every
// importer names as soap.X, and the handler and the clients call it: as a package of its own it
// would import soap for the types while soap imported it for the codec, a cycle that only moving
// the types out too would break (importers would then name two packages, or this one would
// re-export every type as an alias). And the handler and the clients both read and write the
// envelope (envelope.go, fault.go: its constants, the element reader, the fault element), which
// packages of a server side and a client side would have to export to each other. The strict
// request check (handler_strict.go) answers with this package's faults and namespace, and serves
// the handler alone. What stands apart has left: the WSDL writer and reader (soap/wsdl) and the
// XML engine (soap/xmlcodec). Inside, a file's name says its side and concern: codec_* the hot
// codec, client_* the clients, handler_* the server, envelope.go and fault*.go both sides;
// types.go, booking_types.go, sharedlegs.go and wire_values.go the wire types; service.go,
// wsdl_schema.go, tokens.go and bearer.go the services, their documents and their tokens.
//
// This package must not know the domain: it validates envelopes, not airports, dates or
// prices (the airline server does that), and it imports only the standard library, gosoap and
// its own xmlcodec and wsdl.
package soap
