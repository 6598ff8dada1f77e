package soap

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
)

const wsdlNS = "http://schemas.xmlsoap.org/wsdl/"

// ErrBadWSDL reports a WSDL document that cannot drive a call: not XML, or missing the binding,
// service, port or soap:address a client needs.
var ErrBadWSDL = errors.New("unusable WSDL")

// wsdlDoc is the part of a WSDL document this package reads back: the operations a handler
// serves, and what gosoap indexes without checking (which would panic on a WSDL lacking it).
type wsdlDoc struct {
	TargetNamespace string `xml:"targetNamespace,attr"`
	Types           []struct {
		Schemas []struct {
			TargetNamespace string `xml:"targetNamespace,attr"`
		} `xml:"http://www.w3.org/2001/XMLSchema schema"`
	} `xml:"http://schemas.xmlsoap.org/wsdl/ types"`
	PortTypes []struct {
		Ops []struct {
			Name string `xml:"name,attr"`
		} `xml:"http://schemas.xmlsoap.org/wsdl/ operation"`
	} `xml:"http://schemas.xmlsoap.org/wsdl/ portType"`
	Bindings []struct {
		Name string `xml:"name,attr"`
		Ops  []struct {
			Name    string `xml:"name,attr"`
			SoapOps []struct {
				Action string `xml:"soapAction,attr"`
			} `xml:"http://schemas.xmlsoap.org/wsdl/soap/ operation"`
		} `xml:"http://schemas.xmlsoap.org/wsdl/ operation"`
	} `xml:"http://schemas.xmlsoap.org/wsdl/ binding"`
	Services []struct {
		Ports []struct {
			Addresses []struct {
				Location string `xml:"location,attr"`
			} `xml:"http://schemas.xmlsoap.org/wsdl/soap/ address"`
		} `xml:"http://schemas.xmlsoap.org/wsdl/ port"`
	} `xml:"http://schemas.xmlsoap.org/wsdl/ service"`
}

// parseWSDL reads a WSDL document and checks that gosoap can call through it.
func parseWSDL(doc []byte) (*wsdlDoc, error) {
	var w wsdlDoc
	d := xml.NewDecoder(bytes.NewReader(doc))
	start, err := nextElement(d)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadWSDL, err)
	}
	if start.Name.Space != wsdlNS || start.Name.Local != "definitions" {
		return nil, fmt.Errorf("%w: root element <%s> (namespace %q), want wsdl:definitions", ErrBadWSDL, start.Name.Local, start.Name.Space)
	}
	if err := d.DecodeElement(&w, &start); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadWSDL, err)
	}
	switch {
	case len(w.Types) > 0 && len(w.Types[0].Schemas) == 0:
		return nil, fmt.Errorf("%w: wsdl:types holds no xsd:schema", ErrBadWSDL)
	case len(w.Types) == 0 || w.Types[0].Schemas[0].TargetNamespace == "":
		return nil, fmt.Errorf("%w: no xsd:schema targetNamespace to qualify the body element with", ErrBadWSDL)
	case len(w.Bindings) == 0:
		return nil, fmt.Errorf("%w: no wsdl:binding", ErrBadWSDL)
	case len(w.Services) == 0 || len(w.Services[0].Ports) == 0 || len(w.Services[0].Ports[0].Addresses) == 0:
		return nil, fmt.Errorf("%w: no wsdl:service/wsdl:port/soap:address", ErrBadWSDL)
	case w.Services[0].Ports[0].Addresses[0].Location == "":
		return nil, fmt.Errorf("%w: empty soap:address location", ErrBadWSDL)
	}
	return &w, nil
}

// operations lists the operations of the document's port types.
func (w *wsdlDoc) operations() []string {
	var ops []string
	for _, pt := range w.PortTypes {
		for _, op := range pt.Ops {
			ops = append(ops, op.Name)
		}
	}
	return ops
}

// address is where gosoap will POST: the first port's soap:address.
func (w *wsdlDoc) address() string { return w.Services[0].Ports[0].Addresses[0].Location }

// namespace is the body element's namespace: the first schema's targetNamespace.
func (w *wsdlDoc) namespace() string { return w.Types[0].Schemas[0].TargetNamespace }

// hasOperation reports whether the first binding has an operation named op.
func (w *wsdlDoc) hasOperation(op string) bool {
	for _, o := range w.Bindings[0].Ops {
		if o.Name == op {
			return true
		}
	}
	return false
}

// soapAction is the SOAPAction of op as gosoap finds it: the soap:operation of the first
// operation named op, in the first binding, that has one; "" when none has.
func (w *wsdlDoc) soapAction(op string) string {
	for _, o := range w.Bindings[0].Ops {
		if o.Name == op && len(o.SoapOps) > 0 {
			return o.SoapOps[0].Action
		}
	}
	return ""
}
