// Package wsdl writes and reads WSDL 1.1 documents of SOAP services in the document/literal
// wrapped style of the WS-I Basic Profile: Def.Document renders a service's document from its
// name, namespace, schema and operations, and Parse reads a document back for what a client of
// the service needs — the operations, where to POST, the body element's namespace, each
// operation's SOAPAction — checking first that it holds what gosoap indexes without checking
// (which would panic on a document lacking it).
//
// It knows WSDL and nothing of the services themselves: their names, operations and schemas
// are package soap's (which serves and calls them), and it must not import soap. It imports the
// standard library only.
package wsdl
