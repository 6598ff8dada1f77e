package wsdl

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
)

const wsdlNS = "http://schemas.xmlsoap.org/wsdl/"

// ErrUnusable reports a WSDL document that cannot drive a call: not XML, or missing the binding,
// service, port or soap:address a client needs.
var ErrUnusable = errors.New("unusable WSDL")

// Doc is a WSDL document read back by Parse: what a handler and a client need of it.
type Doc struct{ defs definitions }

// definitions is the part of a WSDL document this package reads back: the operations a handler
// serves, and what gosoap indexes without checking (which would panic on a WSDL lacking it).
type definitions struct {
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

// Parse reads a WSDL document and checks that gosoap can call through it.
func Parse(doc []byte) (*Doc, error) {
	var w definitions
	d := xml.NewDecoder(bytes.NewReader(doc))
	start, err := root(d)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnusable, err)
	}
	if start.Name.Space != wsdlNS || start.Name.Local != "definitions" {
		return nil, fmt.Errorf("%w: root element <%s> (namespace %q), want wsdl:definitions", ErrUnusable, start.Name.Local, start.Name.Space)
	}
	if err := d.DecodeElement(&w, &start); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnusable, err)
	}
	switch {
	case len(w.Types) > 0 && len(w.Types[0].Schemas) == 0:
		return nil, fmt.Errorf("%w: wsdl:types holds no xsd:schema", ErrUnusable)
	case len(w.Types) == 0 || w.Types[0].Schemas[0].TargetNamespace == "":
		return nil, fmt.Errorf("%w: no xsd:schema targetNamespace to qualify the body element with", ErrUnusable)
	case len(w.Bindings) == 0:
		return nil, fmt.Errorf("%w: no wsdl:binding", ErrUnusable)
	case len(w.Services) == 0 || len(w.Services[0].Ports) == 0 || len(w.Services[0].Ports[0].Addresses) == 0:
		return nil, fmt.Errorf("%w: no wsdl:service/wsdl:port/soap:address", ErrUnusable)
	case w.Services[0].Ports[0].Addresses[0].Location == "":
		return nil, fmt.Errorf("%w: empty soap:address location", ErrUnusable)
	}
	return &Doc{defs: w}, nil
}

// Operations lists the operations of the document's port types.
func (w *Doc) Operations() []string {
	var ops []string
	for _, pt := range w.defs.PortTypes {
		for _, op := range pt.Ops {
			ops = append(ops, op.Name)
		}
	}
	return ops
}

// Address is where gosoap will POST: the first port's soap:address.
func (w *Doc) Address() string { return w.defs.Services[0].Ports[0].Addresses[0].Location }

// Namespace is the body element's namespace: the first schema's targetNamespace.
func (w *Doc) Namespace() string { return w.defs.Types[0].Schemas[0].TargetNamespace }

// HasOperation reports whether the first binding has an operation named op.
func (w *Doc) HasOperation(op string) bool {
	for _, o := range w.defs.Bindings[0].Ops {
		if o.Name == op {
			return true
		}
	}
	return false
}

// SoapAction is the SOAPAction of op as gosoap finds it: the soap:operation of the first
// operation named op, in the first binding, that has one; "" when none has.
func (w *Doc) SoapAction(op string) string {
	for _, o := range w.defs.Bindings[0].Ops {
		if o.Name == op && len(o.SoapOps) > 0 {
			return o.SoapOps[0].Action
		}
	}
	return ""
}
