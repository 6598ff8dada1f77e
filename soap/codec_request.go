package soap

import (
	"github.com/tiaguinho/gosoap"

	"flightalliance/soap/xmlcodec"
)

// appendRequestEnvelope appends the request envelope of op as gosoap writes it from the same
// parameters, without its indentation and its unused xsi and xsd declarations: soap:Body holds
// the element op in the namespace ns (declared on it), and each parameter is an element of its
// name holding its text, escaped as encoding/xml escapes text, or its own parameters.
func appendRequestEnvelope(b []byte, op, ns string, params gosoap.ArrayParams) []byte {
	b = appendBodyStart(b, op, ns)
	b = appendParams(b, params)
	b = xmlcodec.AppendEndTag(b, op)
	return append(b, envClose...)
}

// appendBodyStart appends the envelope's start and the start tag of the element name in
// soap:Body, which declares its namespace ns itself: gosoap hands its callers the inner XML of
// soap:Body, which loses declarations made on the Envelope.
func appendBodyStart(b []byte, name, ns string) []byte {
	b = append(b, envOpen...)
	b = append(b, '<')
	b = append(b, name...)
	b = append(b, ` xmlns="`...)
	b = xmlcodec.AppendText(b, ns)
	return append(b, `">`...)
}

// appendParams appends toParams's parameters: a string as text, nested parameters as elements.
func appendParams(b []byte, params gosoap.ArrayParams) []byte {
	for _, p := range params {
		name, _ := p[0].(string)
		switch v := p[1].(type) {
		case string:
			b = xmlcodec.AppendElement(b, name, v)
		case gosoap.ArrayParams:
			b = xmlcodec.AppendStartTag(b, name)
			b = appendParams(b, v)
			b = xmlcodec.AppendEndTag(b, name)
		}
	}
	return b
}
