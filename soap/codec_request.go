package soap

import "github.com/tiaguinho/gosoap"

// appendRequestEnvelope appends the request envelope of op as gosoap writes it from the same
// parameters, without its indentation and its unused xsi and xsd declarations: soap:Body holds
// the element op in the namespace ns (declared on it), and each parameter is an element of its
// name holding its text, escaped as encoding/xml escapes text, or its own parameters.
func appendRequestEnvelope(b []byte, op, ns string, params gosoap.ArrayParams) []byte {
	b = append(b, envOpen...)
	b = append(b, '<')
	b = append(b, op...)
	b = append(b, ` xmlns="`...)
	b = appendText(b, ns)
	b = append(b, `">`...)
	b = appendParams(b, params)
	b = append(b, "</"...)
	b = append(b, op...)
	b = append(b, '>')
	return append(b, envClose...)
}

// appendParams appends toParams's parameters: a string as text, nested parameters as elements.
func appendParams(b []byte, params gosoap.ArrayParams) []byte {
	for _, p := range params {
		name, _ := p[0].(string)
		b = append(b, '<')
		b = append(b, name...)
		b = append(b, '>')
		switch v := p[1].(type) {
		case string:
			b = appendText(b, v)
		case gosoap.ArrayParams:
			b = appendParams(b, v)
		}
		b = append(b, "</"...)
		b = append(b, name...)
		b = append(b, '>')
	}
	return b
}
