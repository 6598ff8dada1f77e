package soap

import (
	"context"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"flightalliance/soap/wsdl"
)

func TestWSDLServed(t *testing.T) {
	s := startServer(t, serverOps{})
	for _, svc := range []Service{SellerService(), IntraClusterService()} {
		for _, query := range []string{"?wsdl", "?WSDL", "?Wsdl", "?wsdl="} {
			resp, err := http.Get(s.URL + svc.Path + query)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/xml; charset=utf-8" {
				t.Fatalf("GET %s%s: %s %q", svc.Path, query, resp.Status, resp.Header.Get("Content-Type"))
			}
			doc, err := wsdl.Parse(body)
			if err != nil {
				t.Fatalf("GET %s%s: %v", svc.Path, query, err)
			}
			if got, want := doc.Address(), s.URL+svc.Path; got != want {
				t.Errorf("%s soap:address %q, want the advertised %q", svc.Name, got, want)
			}
		}
	}
}

func TestWSDLAddressFromRequestHost(t *testing.T) {
	h := NewHandler(SellerService(), HandlerOptions{})
	req, err := http.NewRequest(http.MethodGet, "http://airline.example:8101/Services/SellerService?wsdl", nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	doc, err := wsdl.Parse(rec.Body.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := doc.Address(), "http://airline.example:8101/Services/SellerService"; got != want {
		t.Errorf("soap:address %q, want %q", got, want)
	}
}

func TestNewHandlerRefusesBadOperations(t *testing.T) {
	getTripsNoop := func(context.Context, *GetTripsRequest) (*GetTripsResponse, error) { return nil, nil }
	bySrcNoop := func(context.Context, *RelevantBySrcRequest) (*RelevantFlightsResponse, error) { return nil, nil }
	for name, svc := range map[string]Service{
		"twice":       SellerService(Op(OpGetTrips, getTripsNoop), Op(OpGetTrips, getTripsNoop)),
		"not in WSDL": SellerService(Op(OpRelevantBySrc, bySrcNoop)),
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("NewHandler accepted it")
				}
			}()
			NewHandler(svc, HandlerOptions{})
		})
	}
}

// TestWSDLStructure checks the document/literal wrapped shape that toolkits rely on.
func TestWSDLStructure(t *testing.T) {
	for _, def := range []wsdl.Def{sellerDef, intraDef} {
		var w struct {
			TargetNamespace string `xml:"targetNamespace,attr"`
			Schema          struct {
				TargetNamespace    string       `xml:"targetNamespace,attr"`
				ElementFormDefault string       `xml:"elementFormDefault,attr"`
				Elements           []xsdElement `xml:"http://www.w3.org/2001/XMLSchema element"`
			} `xml:"types>schema"`
			Messages []struct {
				Name  string `xml:"name,attr"`
				Parts []struct {
					Name    string `xml:"name,attr"`
					Element string `xml:"element,attr"`
					Type    string `xml:"type,attr"`
				} `xml:"part"`
			} `xml:"message"`
			PortType []struct {
				Name  string `xml:"name,attr"`
				Input struct {
					Message string `xml:"message,attr"`
				} `xml:"input"`
				Output struct {
					Message string `xml:"message,attr"`
				} `xml:"output"`
			} `xml:"portType>operation"`
			Binding struct {
				Soap struct {
					Style     string `xml:"style,attr"`
					Transport string `xml:"transport,attr"`
				} `xml:"http://schemas.xmlsoap.org/wsdl/soap/ binding"`
				Ops []struct {
					Name string `xml:"name,attr"`
					Soap struct {
						Action string `xml:"soapAction,attr"`
					} `xml:"http://schemas.xmlsoap.org/wsdl/soap/ operation"`
					In  useAttr `xml:"input>body"`
					Out useAttr `xml:"output>body"`
				} `xml:"operation"`
			} `xml:"binding"`
			Address struct {
				Location string `xml:"location,attr"`
			} `xml:"service>port>address"`
		}
		if err := xml.Unmarshal(def.Document("http://127.0.0.1:8101/x"), &w); err != nil {
			t.Fatal(err)
		}
		if w.TargetNamespace != Namespace || w.Schema.TargetNamespace != Namespace || w.Schema.ElementFormDefault != "qualified" {
			t.Errorf("%s: namespaces %q %q, elementFormDefault %q", def.Service, w.TargetNamespace, w.Schema.TargetNamespace, w.Schema.ElementFormDefault)
		}
		if w.Binding.Soap.Style != "document" || w.Binding.Soap.Transport != "http://schemas.xmlsoap.org/soap/http" {
			t.Errorf("%s: soap:binding %+v", def.Service, w.Binding.Soap)
		}
		if w.Address.Location != "http://127.0.0.1:8101/x" {
			t.Errorf("%s: soap:address %q", def.Service, w.Address.Location)
		}
		elements := map[string]bool{}
		for _, e := range w.Schema.Elements {
			elements[e.Name] = true
		}
		parts := map[string]string{}
		for _, m := range w.Messages {
			if len(m.Parts) != 1 || m.Parts[0].Type != "" {
				t.Errorf("%s: message %s: want exactly one part, by element", def.Service, m.Name)
				continue
			}
			parts["tns:"+m.Name] = m.Parts[0].Element
		}
		var ops []string
		for _, op := range w.PortType {
			ops = append(ops, op.Name)
			// Wrapped: the input part is the element named after the operation.
			if parts[op.Input.Message] != "tns:"+op.Name || parts[op.Output.Message] != "tns:"+op.Name+"Response" {
				t.Errorf("%s %s: input part %q, output part %q", def.Service, op.Name, parts[op.Input.Message], parts[op.Output.Message])
			}
			if !elements[op.Name] || !elements[op.Name+"Response"] {
				t.Errorf("%s %s: the schema lacks its request or response element", def.Service, op.Name)
			}
		}
		if !slices.Equal(ops, def.Ops) {
			t.Errorf("%s: portType operations %q, want %q", def.Service, ops, def.Ops)
		}
		for _, op := range w.Binding.Ops {
			if op.Soap.Action != Namespace+"/"+op.Name || op.In.Use != "literal" || op.Out.Use != "literal" {
				t.Errorf("%s %s: soapAction %q, input use %q, output use %q", def.Service, op.Name, op.Soap.Action, op.In.Use, op.Out.Use)
			}
		}
		if len(w.Binding.Ops) != len(def.Ops) {
			t.Errorf("%s: %d bound operations, want %d", def.Service, len(w.Binding.Ops), len(def.Ops))
		}
	}
}

type useAttr struct {
	Use string `xml:"use,attr"`
}

type xsdElement struct {
	Name        string          `xml:"name,attr"`
	Type        string          `xml:"type,attr"`
	MinOccurs   string          `xml:"minOccurs,attr"`
	MaxOccurs   string          `xml:"maxOccurs,attr"`
	ComplexType *xsdComplexType `xml:"http://www.w3.org/2001/XMLSchema complexType"`
}

type xsdComplexType struct {
	Name     string       `xml:"name,attr"`
	Sequence []xsdElement `xml:"http://www.w3.org/2001/XMLSchema sequence>element"`
}
