package soap

import (
	"encoding/xml"
	"fmt"
)

// Fault codes of SOAP 1.1 (section 4.4.1), qualified with the prefix this package declares.
const (
	CodeClient          = "soap:Client"
	CodeServer          = "soap:Server"
	CodeVersionMismatch = "soap:VersionMismatch"
	CodeMustUnderstand  = "soap:MustUnderstand"
)

// Fault is a SOAP 1.1 fault. Operations return it to answer the caller with a fault of their
// choosing; clients return it when the remote side answered with a fault.
type Fault struct {
	Code   string // faultcode: CodeClient for the caller's mistakes, CodeServer for ours
	String string // faultstring: a human-readable message that names the bad input
	Detail string // detail: optional
}

// ClientFault is a fault caused by the caller's input; the message should name the field.
func ClientFault(format string, args ...any) *Fault {
	return &Fault{Code: CodeClient, String: fmt.Sprintf(format, args...)}
}

// ServerFault is a fault on the server's side that the caller may retry elsewhere.
func ServerFault(format string, args ...any) *Fault {
	return &Fault{Code: CodeServer, String: fmt.Sprintf(format, args...)}
}

func (f *Fault) Error() string {
	if f.Detail != "" {
		return fmt.Sprintf("soap fault %s: %s (%s)", f.Code, f.String, f.Detail)
	}
	return fmt.Sprintf("soap fault %s: %s", f.Code, f.String)
}

// wireFault is the soap:Fault element. Its children are unqualified, as SOAP 1.1 requires.
type wireFault struct {
	XMLName xml.Name `xml:"Fault"`
	Code    string   `xml:"faultcode"`
	String  string   `xml:"faultstring"`
	Detail  string   `xml:"detail,omitempty"`
}
