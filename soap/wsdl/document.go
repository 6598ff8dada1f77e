package wsdl

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
)

// Def is what a WSDL document is generated from.
type Def struct {
	Service   string   // wsdl:service name; also prefixes the port type, binding and port
	Namespace string   // the targetNamespace of the definitions and of the schema
	Schema    string   // the xsd:schema content: every element and type the operations use
	Ops       []string // operation names; request element op, response element op+"Response"
}

// soapAction is the soapAction the document advertises for op: the namespace, "/", and op.
// A server need not depend on it (package soap's handler dispatches on the body element).
func (def Def) soapAction(op string) string { return def.Namespace + "/" + op }

// Document renders a WSDL 1.1 document in the document/literal wrapped style of the WS-I Basic
// Profile, with soap:address location=address and each operation's soapAction the namespace,
// "/", and the operation's name.
func (def Def) Document(address string) []byte {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	s, ns := def.Service, def.Namespace
	p(`<?xml version="1.0" encoding="UTF-8"?>
<wsdl:definitions name="%s" targetNamespace="%s"
    xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"
    xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:xsd="http://www.w3.org/2001/XMLSchema"
    xmlns:tns="%s">
  <wsdl:types>
    <xsd:schema targetNamespace="%s" elementFormDefault="qualified"
        xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:tns="%s">%s
    </xsd:schema>
  </wsdl:types>
`, s, ns, ns, ns, ns, def.Schema)
	for _, op := range def.Ops {
		p(`  <wsdl:message name="%sRequest">
    <wsdl:part name="parameters" element="tns:%s"/>
  </wsdl:message>
  <wsdl:message name="%sResponse">
    <wsdl:part name="parameters" element="tns:%sResponse"/>
  </wsdl:message>
`, op, op, op, op)
	}
	p("  <wsdl:portType name=\"%sPortType\">\n", s)
	for _, op := range def.Ops {
		p(`    <wsdl:operation name="%s">
      <wsdl:input message="tns:%sRequest"/>
      <wsdl:output message="tns:%sResponse"/>
    </wsdl:operation>
`, op, op, op)
	}
	p(`  </wsdl:portType>
  <wsdl:binding name="%sBinding" type="tns:%sPortType">
    <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
`, s, s)
	for _, op := range def.Ops {
		p(`    <wsdl:operation name="%s">
      <soap:operation soapAction="%s" style="document"/>
      <wsdl:input><soap:body use="literal"/></wsdl:input>
      <wsdl:output><soap:body use="literal"/></wsdl:output>
    </wsdl:operation>
`, op, def.soapAction(op))
	}
	p(`  </wsdl:binding>
  <wsdl:service name="%s">
    <wsdl:port name="%sPort" binding="tns:%sBinding">
      <soap:address location="%s"/>
    </wsdl:port>
  </wsdl:service>
</wsdl:definitions>
`, s, s, s, escapeAttr(address))
	return []byte(b.String())
}

func escapeAttr(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s)) // writes to memory: cannot fail
	return b.String()
}
