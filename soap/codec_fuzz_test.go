package soap

import (
	"bytes"
	"encoding/xml"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/tiaguinho/gosoap"
)

// FuzzDecodeEnvelope feeds the same bytes to the fast decoder and to encoding/xml, decoding
// into the same Go types as the client did through gosoap (gosoap.SoapEnvelope, then
// decodeResponse on the body's inner XML), for each of the three hot response types. Seeds:
// real answers of the encoders, the same with the variations other SOAP stacks write
// (indentation, prefixes, CDATA, comments, references, attributes, headers), and inputs the fast
// decoder must leave to encoding/xml; more in testdata/fuzz/FuzzDecodeEnvelope.
//
// The contract (see checkDecoder): when the fast decoder accepts an input, encoding/xml accepts
// it too and decodes the same value; when it does not, it leaves its value untouched. So
// decodeEnvelope, which falls back to encoding/xml, answers exactly what encoding/xml answers:
// the same value, the same *Fault, or an error for both. The fast decoder is never stricter: it
// defers, and encoding/xml decides. The one difference from gosoap is not the decoder's: gosoap
// also converts documents that declare another encoding than UTF-8 (ISO-8859-1...), which
// encoding/xml alone refuses, as the client now does; this package's servers write UTF-8 only.
func FuzzDecodeEnvelope(f *testing.F) {
	for _, seed := range decoderSeeds(f) {
		f.Add([]byte(seed.doc))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkDecoder(t, raw, "getTripsResponse", func() any { return new(GetTripsResponse) })
		checkDecoder(t, raw, "getRelevantFlightsBySrcResponse", func() any { return new(RelevantFlightsResponse) })
		checkDecoder(t, raw, "sendPrimarySellerResponse", func() any { return new(SellerPage) })
	})
}

// referenceDecode is how the client decoded an answer through gosoap (less gosoap's charset
// conversion): encoding/xml into gosoap.SoapEnvelope, then decodeResponse on the body.
func referenceDecode(raw []byte, want string, v any) error {
	var env gosoap.SoapEnvelope
	if err := xml.NewDecoder(bytes.NewReader(raw)).Decode(&env); err != nil {
		return err
	}
	return decodeResponse(env.Body.Contents, want, v)
}

// fataler is what checkDecoder needs of a *testing.T or a *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// checkDecoder checks the fast decoder and decodeEnvelope against referenceDecode on raw, and
// reports whether the fast decoder accepted it.
func checkDecoder(t fataler, raw []byte, want string, fresh func() any) bool {
	t.Helper()
	ref, fast, got := fresh(), fresh(), fresh()
	refErr := referenceDecode(raw, want, ref)
	accepted := fastDecode(raw, want, fast)
	switch {
	case accepted && refErr != nil:
		t.Fatalf("the fast decoder accepts as <%s> what encoding/xml refuses (%v):\n%q", want, refErr, raw)
	case accepted && !reflect.DeepEqual(fast, ref):
		t.Fatalf("<%s>: the fast decoder decodes\n%+v\nencoding/xml decodes\n%+v\nfrom %q", want, fast, ref, raw)
	case !accepted && !reflect.DeepEqual(fast, fresh()):
		t.Fatalf("<%s>: the fast decoder deferred but changed its value to %+v", want, fast)
	}
	err := decodeEnvelope(raw, want, got)
	var refFault, fault *Fault
	switch {
	case refErr == nil:
		if err != nil || !reflect.DeepEqual(got, ref) {
			t.Fatalf("<%s>: decodeEnvelope: %v, %+v; encoding/xml decodes %+v", want, err, got, ref)
		}
	case errors.As(refErr, &refFault):
		if !errors.As(err, &fault) || *fault != *refFault {
			t.Fatalf("<%s>: decodeEnvelope: %v; encoding/xml decodes the fault %+v", want, err, refFault)
		}
	default:
		if err == nil || errors.As(err, &fault) || !errors.Is(err, ErrBadResponse) {
			t.Fatalf("<%s>: decodeEnvelope: %v, %+v; encoding/xml refuses: %v", want, err, got, refErr)
		}
	}
	return accepted
}

// decoderSeed is a seed document and the response element the fast decoder must accept in it
// ("" when it must leave the document to encoding/xml).
type decoderSeed struct{ doc, fast string }

// decoderSeeds are answers as the encoders write them, as other stacks could write them, and
// documents the fast decoder must defer.
func decoderSeeds(t testing.TB) []decoderSeed {
	var seeds []decoderSeed
	add := func(name string, v any) {
		var buf bytes.Buffer
		if err := writeEnvelope(&buf, name, v); err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, decoderSeed{buf.String(), name})
	}
	add("getTripsResponse", sampleTrips())
	add("getTripsResponse", manyTrips(3))
	add("getTripsResponse", &GetTripsResponse{Alliance: "star", Complete: true, Total: 12})
	add("getRelevantFlightsBySrcResponse", sampleRelevant())
	add("sendPrimarySellerResponse", &SellerPage{Seller: "L\"Y'\t\r\n\x00\xff<>&", Version: "v1", Flights: sampleFlights(2), NextCursor: "]]>"})
	var fault bytes.Buffer
	writeFaultEnvelope(&fault, &Fault{Code: CodeClient, String: `Src "<x>": bad`, Detail: KindNotFound})
	seeds = append(seeds, decoderSeed{fault.String(), ""})

	const ns = ` xmlns="urn:flightalliance:v1"`
	fast := func(want string, docs ...string) {
		for _, doc := range docs {
			seeds = append(seeds, decoderSeed{doc, want})
		}
	}
	fast("getTripsResponse",
		// Indented, CRLF line ends, a header, a comment and a processing instruction.
		"<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<!-- answer -->\r\n<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\">\r\n"+
			"  <soap:Header><t:Trace xmlns:t=\"urn:t\">x</t:Trace></soap:Header>\r\n  <soap:Body>\r\n    <?keep going?>\r\n"+
			"    <getTripsResponse"+ns+">\r\n      <Alliance>star</Alliance>\r\n      <Trips>\r\n        <Price>1.00</Price>\r\n"+
			"        <Legs>\r\n          <Flight>LY1</Flight>\r\n          <Seats>\r\n 3 \r\n</Seats>\r\n        </Legs>\r\n      </Trips>\r\n"+
			"      <Complete> true </Complete>\r\n      <Total>+1</Total>\r\n    </getTripsResponse>\r\n  </soap:Body>\r\n</soap:Envelope>\r\n",
		// Prefixes declared on the envelope (so the response's namespace is lost, as with gosoap).
		`<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:t="urn:flightalliance:v1"><s:Body>`+
			`<t:getTripsResponse><t:Alliance>a</t:Alliance><t:Trips><t:Legs><t:Src>TLV</t:Src></t:Legs></t:Trips>`+
			`<t:MissingSellers>UA</t:MissingSellers></t:getTripsResponse></s:Body></s:Envelope>`,
		// Declared on the response element, twice.
		envelope(`<p:getTripsResponse xmlns:p="urn:a" xmlns:p='urn:b' xmlns="urn:c"><Alliance/></p:getTripsResponse>`),
		envelope(`<xml:getTripsResponse/>`),
		envelope(`<xmlns:getTripsResponse/>`),
		envelope(`<getTripsResponse xmlns=""/>`),
		// Text in pieces: CDATA, references, comments, instructions, nested elements.
		envelope(`<getTripsResponse`+ns+`><Alliance>a<!--c--><![CDATA[<b>&amp;]]>&amp;&#x41;&#66;&apos;&quot;<?pi x?><i>skip</i>z</Alliance></getTripsResponse>`),
		envelope(`<getTripsResponse`+ns+`><Alliance><![CDATA[]]></Alliance><Alliance>second</Alliance><Trips/><Trips><Legs/></Trips></getTripsResponse>`),
		envelope(`<getTripsResponse`+ns+` id="1" q:x='2' xmlns:q="urn:q"><Unknown><Price>9</Price></Unknown>text<Trips a="b"><Price>2</Price><Extra/></Trips></getTripsResponse>`),
		envelope(`<getTripsResponse`+ns+`><Complete>1</Complete><Total>-0007</Total><Total></Total></getTripsResponse>`),
		envelope(`<getTripsResponse`+ns+`><Total>999999999999999999</Total><Trips><Legs><Seats>1000000000000000000</Seats></Legs></Trips></getTripsResponse>`),
		// Line ends: CR LF and a lone CR read as LF, but not across a reference.
		envelope(`<getTripsResponse`+ns+`><Alliance>a`+"\r&amp;\n\r\n\r\r\nb&#13;\n]&#93;>"+`</Alliance></getTripsResponse>`),
		envelope(" \u00a0\n<getTripsResponse"+ns+"/>"),
		envelope(`<getTripsResponse`+ns+`/><more/>trailing`),
		envelope(`<getTripsResponse`+ns+`/>`)+"trailing <garbage",
	)
	fast("sendPrimarySellerResponse", envelope(`<sendPrimarySellerResponse`+ns+`><Seller>LY</Seller><Flights><Seats>1</Seats></Flights><NextCursor>3</NextCursor></sendPrimarySellerResponse>`))
	fast("getRelevantFlightsBySrcResponse", envelope(`<getRelevantFlightsBySrcResponse`+ns+`><Sellers>LY</Sellers><Sellers></Sellers><Flights/></getRelevantFlightsBySrcResponse>`))
	// The plain first reading of flights, legs and trips (codec_decode_plain.go) stopping at every
	// kind of field it leaves to the general loop: out of order, spaced, escaped, prefixed, with an
	// attribute, self-closing, repeated after it, a number with spaces or none.
	plainFlight := `<Flight>LY1</Flight><Seller>LY</Seller><Src>TLV</Src><Dst>JFK</Dst><Departure>2026-12-01T08:00:00Z</Departure><Arrival>2026-12-01T19:10:00Z</Arrival><Price>5.25</Price>`
	relevant := func(flights ...string) string {
		return envelope(`<getRelevantFlightsBySrcResponse` + ns + `><Sellers>LY</Sellers><Flights>` + strings.Join(flights, `</Flights><Flights>`) + `</Flights></getRelevantFlightsBySrcResponse>`)
	}
	fast("getRelevantFlightsBySrcResponse",
		relevant(plainFlight+`<Seats>7</Seats>`, plainFlight+`<Seats> 7 </Seats>`, plainFlight+`<Seats></Seats>`, plainFlight+`<Seats>+0000000000000000000007</Seats>`),
		relevant(plainFlight+`<Seats>7</Seats><Flight>LY2</Flight><Extra>x</Extra>`, plainFlight, `<Seller>LY</Seller>`+plainFlight),
		relevant(`<Flight>LY1</Flight><Seller>L&amp;Y</Seller><Src>TLV</Src>`, `<Flight>LY1</Flight> <Seller>LY</Seller>`, `<Flight>LY1</Flight><Seller a="1">LY</Seller>`),
		relevant(`<Flight>LY1</Flight><p:Seller xmlns:p="urn:p">LY</p:Seller>`, `<Flight>LY1</Flight><Seller/><Src>TLV</Src>`, `<Flight>LY1</Flight><Seller >LY</Seller ><Src>TLV</Src>`),
		relevant(`<Flight>LY1</Flight><Seller>LY<!-- c --></Seller>`, `<Flight>LY1</Flight><Seller>LY</Seller><Src>T`+"é"+`V</Src>`, `<Flight>LY1</Flight><SellerX>LY</SellerX><Seller>UA</Seller>`),
		relevant(`<Flight>LY1</Flight><Seller>LY</Seller>`+"\n", `<Flight>LY1</Flight><Seller>LY</Seller><Seller>UA</Seller>`),
		envelope(`<getRelevantFlightsBySrcResponse`+ns+`><Flights/><Flight>LY9</Flight><Flights><Flight>LY1</Flight></Flights></getRelevantFlightsBySrcResponse>`),
	)
	fast("getTripsResponse",
		envelope(`<getTripsResponse`+ns+`><SharedLegs>`+strings.Replace(plainFlight, `<Src>`, `<Alliance>star</Alliance><Src>`, 1)+`<Seats>3</Seats></SharedLegs>`+
			`<Trips><Price>1.00</Price><LegIndexes>0</LegIndexes><LegIndexes> 0 </LegIndexes><LegIndexes>0</LegIndexes></Trips><Trips><Price>2</Price><Legs><Flight>X</Flight></Legs><LegIndexes>0</LegIndexes></Trips>`+
			`<Trips><LegIndexes>0</LegIndexes><Price>3</Price><Price>4</Price></Trips><Trips><Price>5</Price><LegIndexes/></Trips></getTripsResponse>`),
	)
	add("getTripsResponse", manyTrips(4).ShareLegs())
	fast("", // the plain reading meets a number that does not parse, or tags that do not match: encoding/xml refuses these too
		relevant(plainFlight+`<Seats>seven</Seats>`),
		relevant(`<Flight>LY1</Flight><Seller>LY</Sellers></Seller>`),
		relevant(`<Flight>LY1</Flight><Xeller>LY</Seller>`),
		relevant(`<Flight>LY1</Flight><Seller>LY</Xeller>`),
		relevant(`<Flight>LY1</Flight><Seller>LY<xSeller>`),
		relevant(plainFlight+`<Seats>99999999999999999999</Seats>`),
		envelope(`<getTripsResponse`+ns+`><Trips><Price>1</Price><LegIndexes>x</LegIndexes></Trips></getTripsResponse>`),
	)
	fast("", // for encoding/xml to decide: refusals, and what the fast decoder does not read
		envelope(`<getTripsResponse`+ns+`><Total>abc</Total></getTripsResponse>`),
		envelope(`<getTripsResponse`+ns+`><Total>99999999999999999999</Total><Complete>maybe</Complete></getTripsResponse>`),
		envelope(`<getTripsResponse`+ns+`><Total>9999999999999999999</Total></getTripsResponse>`),
		envelope("text<getTripsResponse"+ns+"/>"),
		`<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><getTripsResponse/></soap:Body><soap:Body><getTripsResponse><Total>2</Total></getTripsResponse></soap:Body></soap:Envelope>`,
		`<Envelope><Header/></Envelope>`,
		`<Other><Body><getTripsResponse/></Body></Other>`,
		`<!DOCTYPE e [<!ENTITY x "y">]><Envelope><Body><getTripsResponse/></Body></Envelope>`,
		`<?xml version="1.0" encoding="ISO-8859-1"?><Envelope><Body><getTripsResponse/></Body></Envelope>`,
		`<?xml version="1.1"?><Envelope><Body><getTripsResponse/></Body></Envelope>`,
		"\ufeff"+envelope(`<getTripsResponse`+ns+`/>`),
		envelope(`<getTripsResponse`+ns+`><Alliance>`+"\xff\x00"+`</Alliance></getTripsResponse>`),
		envelope(`<getTripsResponse`+ns+`><Alliance>&#0;&#xD800;&unknown;</Alliance></getTripsResponse>`),
		envelope(`<getTripsResponse`+ns+`><Alliance>]]></Alliance></getTripsResponse>`),
		envelope(`<getTripsResponse`+ns+`><!-- a -- b --><Alliance>a<!-- c --->b</Alliance></getTripsResponse>`),
		envelope(`<getTripsResponse`+ns+`><Alliance a="x" b=xyx>a</Alliance></getTripsResponse>`),
		envelope(`<getTripsResponse`+ns+`><Alliance a="<">a</Alliance></getTripsResponse>`),
		envelope(`<getTripsResponse`+ns+`><Alliance>a</Alliance><1x/></getTripsResponse>`),
		envelope(`<getTripsResponse`+ns+`><Alliance -a="1">a</Alliance></getTripsResponse>`),
		envelope(`<getTripsResponse`+ns+`><Alliance>x</alliance></getTripsResponse>`),
		envelope(`<getTripsResponse`+ns+`><a:b:c/></getTripsResponse>`),
		envelope(`<getTripsResponse`+ns+`><Trips>`+strings.Repeat("<x>", 100)+strings.Repeat("</x>", 100)+`</Trips></getTripsResponse>`),
		envelope(`<getTripsResponse`+ns+`><Alliance>trunc`),
	)
	return seeds
}

// TestFastDecoderSeeds checks the seeds as the fuzz target does, and that the fast decoder
// reads what it should rather than leaving it all to encoding/xml.
func TestFastDecoderSeeds(t *testing.T) {
	types := map[string]func() any{
		"getTripsResponse":                func() any { return new(GetTripsResponse) },
		"getRelevantFlightsBySrcResponse": func() any { return new(RelevantFlightsResponse) },
		"sendPrimarySellerResponse":       func() any { return new(SellerPage) },
	}
	for i, seed := range decoderSeeds(t) {
		for want, fresh := range types {
			if accepted := checkDecoder(t, []byte(seed.doc), want, fresh); accepted != (want == seed.fast) {
				t.Errorf("seed %d as <%s>: fast decoder accepted %v\n%q", i, want, accepted, seed.doc)
			}
		}
	}
}
