package soap

import (
	"encoding/xml"
	"reflect"
	"slices"
	"strings"
	"testing"

	"flightalliance/soap/wsdl"
)

// goTypes names the Go type of every global element and complex type of the schemas.
var goTypes = map[string]reflect.Type{
	"Flight":                          reflect.TypeFor[Flight](),
	"Leg":                             reflect.TypeFor[Leg](),
	"Trip":                            reflect.TypeFor[Trip](),
	"SendSellerRequest":               reflect.TypeFor[SendSellerRequest](),
	"SellerPage":                      reflect.TypeFor[SellerPage](),
	"RelevantFlightsResponse":         reflect.TypeFor[RelevantFlightsResponse](),
	"SellerVersion":                   reflect.TypeFor[SellerVersion](),
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
	"getRelevantFlights":              reflect.TypeFor[RelevantFlightsRequest](),
	"getRelevantFlightsResponse":      reflect.TypeFor[RelevantBothResponse](),
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
	for _, def := range []wsdl.Def{sellerDef, intraDef} {
		var schema struct {
			Elements     []xsdElement     `xml:"http://www.w3.org/2001/XMLSchema element"`
			ComplexTypes []xsdComplexType `xml:"http://www.w3.org/2001/XMLSchema complexType"`
		}
		if err := xml.Unmarshal([]byte("<xsd:schema xmlns:xsd='"+"http://www.w3.org/2001/XMLSchema"+"'>"+def.Schema+"</xsd:schema>"), &schema); err != nil {
			t.Fatalf("%s schema: %v", def.Service, err)
		}
		named := map[string]xsdComplexType{}
		for _, ct := range schema.ComplexTypes {
			named["tns:"+ct.Name] = ct
			checkComplexType(t, def.Service+" complexType "+ct.Name, ct, goTypes[ct.Name])
		}
		declared := map[string]bool{}
		for _, el := range schema.Elements {
			declared[el.Name] = true
			where := def.Service + " element " + el.Name
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
		for _, op := range def.Ops {
			if !declared[op] || !declared[op+"Response"] {
				t.Errorf("%s: operation %s lacks an element", def.Service, op)
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
		case intList && el.MinOccurs != "0":
			t.Errorf("%s %s: minOccurs %q, but a list of ints is written as nothing when empty", where, el.Name, el.MinOccurs)
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
