package soap

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Envelope namespaces. This package speaks SOAP 1.1; a SOAP 1.2 envelope is a version mismatch.
const (
	envNS     = "http://schemas.xmlsoap.org/soap/envelope/"
	env12NS   = "http://www.w3.org/2003/05/soap-envelope"
	actorNext = "http://schemas.xmlsoap.org/soap/actor/next"
	xmlHeader = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"
	envOpen   = `<soap:Envelope xmlns:soap="` + envNS + `"><soap:Body>`
	envClose  = `</soap:Body></soap:Envelope>`
)

// errEmptyBody reports a request with no XML at all.
var errEmptyBody = errors.New("empty request body")

// openBody reads an envelope from its start up to the first element inside soap:Body and
// returns that element, leaving the decoder inside it. Header blocks are skipped unless they
// demand to be understood. Errors are *Fault for envelope mistakes, or the decoder's error.
func openBody(d *xml.Decoder) (xml.StartElement, error) {
	env, err := nextElement(d)
	if errors.Is(err, io.EOF) {
		return xml.StartElement{}, errEmptyBody
	}
	if err != nil {
		return xml.StartElement{}, err
	}
	switch {
	case env.Name.Local == "Envelope" && env.Name.Space == envNS:
	case env.Name.Local == "Envelope" && env.Name.Space == env12NS:
		return xml.StartElement{}, &Fault{Code: CodeVersionMismatch, String: "SOAP 1.2 envelope: this service speaks SOAP 1.1 (" + envNS + ")"}
	case env.Name.Local == "Envelope":
		return xml.StartElement{}, &Fault{Code: CodeVersionMismatch, String: fmt.Sprintf("Envelope namespace %q: want %s", env.Name.Space, envNS)}
	default:
		return xml.StartElement{}, ClientFault("root element <%s>: want soap:Envelope", env.Name.Local)
	}

	el, err := nextElement(d)
	if err != nil {
		return xml.StartElement{}, inEnvelope(err, "soap:Envelope has no soap:Body")
	}
	if el.Name.Space == envNS && el.Name.Local == "Header" {
		if err := checkHeader(d); err != nil {
			return xml.StartElement{}, err
		}
		if el, err = nextElement(d); err != nil {
			return xml.StartElement{}, inEnvelope(err, "soap:Envelope has no soap:Body")
		}
	}
	if el.Name.Space != envNS || el.Name.Local != "Body" {
		return xml.StartElement{}, ClientFault("element <%s> in soap:Envelope: want soap:Body", el.Name.Local)
	}
	op, err := nextElement(d)
	if err != nil {
		return xml.StartElement{}, inEnvelope(err, "empty soap:Body: want an operation element")
	}
	return op, nil
}

// inEnvelope turns errEndElement, met where an element was due, into a fault saying what was
// missing.
func inEnvelope(err error, missing string) error {
	if errors.Is(err, errEndElement) {
		return ClientFault("%s", missing)
	}
	return err
}

// closeBody reads what follows the operation element: the end of soap:Body, of soap:Envelope,
// and nothing but whitespace, comments and processing instructions up to the end of input.
func closeBody(d *xml.Decoder) error {
	for _, parent := range []string{"soap:Body", "soap:Envelope"} {
		el, err := nextElement(d)
		if err == nil {
			return ClientFault("element <%s> after the operation element: %s holds one element only", el.Name.Local, parent)
		}
		if !errors.Is(err, errEndElement) {
			return err
		}
	}
	_, err := nextElement(d)
	switch {
	case errors.Is(err, io.EOF):
		return nil
	case err == nil:
		return ClientFault("content after soap:Envelope")
	default:
		return err
	}
}

// checkHeader skips the header blocks, refusing any that this service must understand.
func checkHeader(d *xml.Decoder) error {
	for {
		block, err := nextElement(d)
		if errors.Is(err, errEndElement) {
			return nil
		}
		if err != nil {
			return err
		}
		var mustUnderstand bool
		actor := ""
		for _, a := range block.Attr {
			if a.Name.Space != envNS {
				continue
			}
			switch a.Name.Local {
			case "mustUnderstand":
				mustUnderstand = strings.TrimSpace(a.Value) == "1" || strings.TrimSpace(a.Value) == "true"
			case "actor":
				actor = a.Value
			}
		}
		if mustUnderstand && (actor == "" || actor == actorNext) {
			return &Fault{Code: CodeMustUnderstand, String: fmt.Sprintf("header <%s> (namespace %q) is not understood", block.Name.Local, block.Name.Space)}
		}
		if err := d.Skip(); err != nil {
			return err
		}
	}
}

// errEndElement is what nextElement returns at an end element.
var errEndElement = errors.New("end of element")

// nextElement returns the next start element, skipping whitespace, comments and processing
// instructions; it returns errEndElement at an end element and io.EOF at the end of input.
// Text and DTDs are refused: SOAP 1.1 forbids a DTD, and text has no place between elements.
func nextElement(d *xml.Decoder) (xml.StartElement, error) {
	for {
		tok, err := d.Token()
		if err != nil {
			return xml.StartElement{}, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			return t, nil
		case xml.EndElement:
			return xml.StartElement{}, errEndElement
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				return xml.StartElement{}, ClientFault("unexpected text %q between elements", shorten(string(t)))
			}
		case xml.Directive:
			return xml.StartElement{}, ClientFault("DTDs and directives are not allowed in a SOAP message")
		}
	}
}

// writeEnvelope writes a whole response envelope whose body is v encoded as the element name.
// The element declares the default namespace itself: gosoap hands its callers the inner XML of
// soap:Body, which loses declarations made on the Envelope.
func writeEnvelope(w *bytes.Buffer, name string, v any) error {
	w.WriteString(xmlHeader)
	w.WriteString(envOpen)
	enc := xml.NewEncoder(w)
	start := xml.StartElement{
		Name: xml.Name{Local: name},
		Attr: []xml.Attr{{Name: xml.Name{Local: "xmlns"}, Value: Namespace}},
	}
	if err := enc.EncodeElement(v, start); err != nil {
		return fmt.Errorf("encode <%s>: %w", name, err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("encode <%s>: %w", name, err)
	}
	w.WriteString(envClose)
	return nil
}

// writeFaultEnvelope writes a whole fault envelope. soap:Fault declares its prefix again, so
// that the faultcode QName still resolves in the inner XML a client like gosoap extracts.
func writeFaultEnvelope(w *bytes.Buffer, f *Fault) {
	w.WriteString(xmlHeader)
	w.WriteString(envOpen)
	enc := xml.NewEncoder(w)
	start := xml.StartElement{
		Name: xml.Name{Local: "soap:Fault"},
		Attr: []xml.Attr{{Name: xml.Name{Local: "xmlns:soap"}, Value: envNS}},
	}
	// Encoding strings cannot fail: invalid characters are replaced, not refused.
	_ = enc.EncodeElement(wireFault{Code: f.Code, String: f.String, Detail: f.Detail}, start)
	_ = enc.Close()
	w.WriteString(envClose)
}

// shorten cuts s for an error message.
func shorten(s string) string {
	const limit = 40
	if len(s) <= limit {
		return s
	}
	return s[:limit] + "…"
}
