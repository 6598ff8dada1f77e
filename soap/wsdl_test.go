package soap

import (
	"context"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
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
			doc, err := parseWSDL(body)
			if err != nil {
				t.Fatalf("GET %s%s: %v", svc.Path, query, err)
			}
			if got, want := doc.address(), s.URL+svc.Path; got != want {
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
	doc, err := parseWSDL(rec.Body.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := doc.address(), "http://airline.example:8101/Services/SellerService"; got != want {
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
	for _, def := range []wsdlDef{sellerDef, intraDef} {
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
		if err := xml.Unmarshal(def.document("http://127.0.0.1:8101/x"), &w); err != nil {
			t.Fatal(err)
		}
		if w.TargetNamespace != Namespace || w.Schema.TargetNamespace != Namespace || w.Schema.ElementFormDefault != "qualified" {
			t.Errorf("%s: namespaces %q %q, elementFormDefault %q", def.service, w.TargetNamespace, w.Schema.TargetNamespace, w.Schema.ElementFormDefault)
		}
		if w.Binding.Soap.Style != "document" || w.Binding.Soap.Transport != "http://schemas.xmlsoap.org/soap/http" {
			t.Errorf("%s: soap:binding %+v", def.service, w.Binding.Soap)
		}
		if w.Address.Location != "http://127.0.0.1:8101/x" {
			t.Errorf("%s: soap:address %q", def.service, w.Address.Location)
		}
		elements := map[string]bool{}
		for _, e := range w.Schema.Elements {
			elements[e.Name] = true
		}
		parts := map[string]string{}
		for _, m := range w.Messages {
			if len(m.Parts) != 1 || m.Parts[0].Type != "" {
				t.Errorf("%s: message %s: want exactly one part, by element", def.service, m.Name)
				continue
			}
			parts["tns:"+m.Name] = m.Parts[0].Element
		}
		var ops []string
		for _, op := range w.PortType {
			ops = append(ops, op.Name)
			// Wrapped: the input part is the element named after the operation.
			if parts[op.Input.Message] != "tns:"+op.Name || parts[op.Output.Message] != "tns:"+op.Name+"Response" {
				t.Errorf("%s %s: input part %q, output part %q", def.service, op.Name, parts[op.Input.Message], parts[op.Output.Message])
			}
			if !elements[op.Name] || !elements[op.Name+"Response"] {
				t.Errorf("%s %s: the schema lacks its request or response element", def.service, op.Name)
			}
		}
		if !slices.Equal(ops, def.ops) {
			t.Errorf("%s: portType operations %q, want %q", def.service, ops, def.ops)
		}
		for _, op := range w.Binding.Ops {
			if op.Soap.Action != soapAction(op.Name) || op.In.Use != "literal" || op.Out.Use != "literal" {
				t.Errorf("%s %s: soapAction %q, input use %q, output use %q", def.service, op.Name, op.Soap.Action, op.In.Use, op.Out.Use)
			}
		}
		if len(w.Binding.Ops) != len(def.ops) {
			t.Errorf("%s: %d bound operations, want %d", def.service, len(w.Binding.Ops), len(def.ops))
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

// goTypes names the Go type of every global element and complex type of the schemas.
var goTypes = map[string]reflect.Type{
	"Flight":                          reflect.TypeFor[Flight](),
	"Leg":                             reflect.TypeFor[Leg](),
	"Trip":                            reflect.TypeFor[Trip](),
	"SendSellerRequest":               reflect.TypeFor[SendSellerRequest](),
	"SellerPage":                      reflect.TypeFor[SellerPage](),
	"RelevantFlightsResponse":         reflect.TypeFor[RelevantFlightsResponse](),
	"getTrips":                        reflect.TypeFor[GetTripsRequest](),
	"getTripsResponse":                reflect.TypeFor[GetTripsResponse](),
	"LegRef":                          reflect.TypeFor[LegRef](),
	"Booking":                         reflect.TypeFor[Booking](),
	"BookingRequest":                  reflect.TypeFor[BookingRequest](),
	"BookingResponse":                 reflect.TypeFor[BookingResponse](),
	"reserve":                         reflect.TypeFor[ReserveRequest](),
	"reserveResponse":                 reflect.TypeFor[ReserveResponse](),
	"cancel":                          reflect.TypeFor[BookingRequest](),
	"cancelResponse":                  reflect.TypeFor[BookingResponse](),
	"confirm":                         reflect.TypeFor[BookingRequest](),
	"confirmResponse":                 reflect.TypeFor[BookingResponse](),
	"getBooking":                      reflect.TypeFor[BookingRequest](),
	"getBookingResponse":              reflect.TypeFor[BookingResponse](),
	"getSeats":                        reflect.TypeFor[GetSeatsRequest](),
	"getSeatsResponse":                reflect.TypeFor[GetSeatsResponse](),
	"sendPrimarySeller":               reflect.TypeFor[SendSellerRequest](),
	"sendPrimarySellerResponse":       reflect.TypeFor[SellerPage](),
	"sendBackupSeller":                reflect.TypeFor[SendSellerRequest](),
	"sendBackupSellerResponse":        reflect.TypeFor[SellerPage](),
	"getRelevantFlightsBySrc":         reflect.TypeFor[RelevantBySrcRequest](),
	"getRelevantFlightsBySrcResponse": reflect.TypeFor[RelevantFlightsResponse](),
	"getRelevantFlightsByDst":         reflect.TypeFor[RelevantByDstRequest](),
	"getRelevantFlightsByDstResponse": reflect.TypeFor[RelevantFlightsResponse](),
	"getFlights":                      reflect.TypeFor[GetFlightsRequest](),
	"getFlightsResponse":              reflect.TypeFor[RelevantFlightsResponse](),
}

// xsdTypesOf lists the schema types a Go kind may be declared with.
var xsdTypesOf = map[reflect.Kind][]string{
	reflect.String: {"xsd:string", "xsd:date", "xsd:dateTime", "xsd:decimal"},
	reflect.Int:    {"xsd:int"},
	reflect.Bool:   {"xsd:boolean"},
}

// TestSchemaMatchesGoTypes walks both schemas and checks every element and complex type against
// the Go type encoding/xml reads and writes: the same children in the same order, a list where
// there is a slice, optional where the field is omitempty, a scalar type the Go kind can hold.
func TestSchemaMatchesGoTypes(t *testing.T) {
	for _, def := range []wsdlDef{sellerDef, intraDef} {
		var schema struct {
			Elements     []xsdElement     `xml:"http://www.w3.org/2001/XMLSchema element"`
			ComplexTypes []xsdComplexType `xml:"http://www.w3.org/2001/XMLSchema complexType"`
		}
		if err := xml.Unmarshal([]byte("<xsd:schema xmlns:xsd='"+"http://www.w3.org/2001/XMLSchema"+"'>"+def.schema+"</xsd:schema>"), &schema); err != nil {
			t.Fatalf("%s schema: %v", def.service, err)
		}
		named := map[string]xsdComplexType{}
		for _, ct := range schema.ComplexTypes {
			named["tns:"+ct.Name] = ct
			checkComplexType(t, def.service+" complexType "+ct.Name, ct, goTypes[ct.Name])
		}
		declared := map[string]bool{}
		for _, el := range schema.Elements {
			declared[el.Name] = true
			where := def.service + " element " + el.Name
			switch {
			case el.ComplexType != nil:
				checkComplexType(t, where, *el.ComplexType, goTypes[el.Name])
			case named[el.Type].Name != "":
				if goTypes[el.Name] != goTypes[named[el.Type].Name] {
					t.Errorf("%s: type %s, but Go decodes it as %v", where, el.Type, goTypes[el.Name])
				}
			default:
				t.Errorf("%s: type %q is not a complex type of the schema", where, el.Type)
			}
		}
		for _, op := range def.ops {
			if !declared[op] || !declared[op+"Response"] {
				t.Errorf("%s: operation %s lacks an element", def.service, op)
			}
		}
	}
}

func checkComplexType(t *testing.T, where string, ct xsdComplexType, typ reflect.Type) {
	t.Helper()
	if typ == nil {
		t.Errorf("%s: no Go type", where)
		return
	}
	var fields []reflect.StructField
	for f := range typ.Fields() {
		if f.Name != "XMLName" {
			fields = append(fields, f)
		}
	}
	if len(fields) != len(ct.Sequence) {
		t.Errorf("%s: %d elements, Go type %v has %d fields", where, len(ct.Sequence), typ, len(fields))
		return
	}
	for i, f := range fields {
		el := ct.Sequence[i]
		name, opts, _ := strings.Cut(f.Tag.Get("xml"), ",")
		optional := strings.Contains(opts, "omitempty")
		ft := f.Type
		list := ft.Kind() == reflect.Slice
		if list {
			ft = ft.Elem()
		}
		// encoding/xml applies omitempty to a list item by item: a list of ints so tagged loses
		// its zeros. Such a list is optional by being empty.
		intList := list && ft.Kind() == reflect.Int
		switch {
		case el.Name != name:
			t.Errorf("%s: element %d is %q, Go field %s reads %q", where, i, el.Name, f.Name, name)
		case list != (el.MaxOccurs == "unbounded"):
			t.Errorf("%s %s: maxOccurs %q, Go field is %v", where, el.Name, el.MaxOccurs, f.Type)
		case intList && optional:
			t.Errorf("%s %s: a list of ints tagged omitempty: encoding/xml would leave out every 0", where, el.Name)
		case !intList && optional != (el.MinOccurs == "0"):
			t.Errorf("%s %s: minOccurs %q, Go field omitempty=%v", where, el.Name, el.MinOccurs, optional)
		case ft.Kind() == reflect.Struct:
			if el.Type != "tns:"+ft.Name() || goTypes[ft.Name()] != ft {
				t.Errorf("%s %s: type %q, Go field is %v", where, el.Name, el.Type, f.Type)
			}
		case !slices.Contains(xsdTypesOf[ft.Kind()], el.Type):
			t.Errorf("%s %s: type %q cannot hold Go %v (want one of %q)", where, el.Name, el.Type, ft, xsdTypesOf[ft.Kind()])
		}
	}
}
