package soap

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"sync"

	"flightalliance/soap/xmlcodec"
)

// decodeEnvelope decodes a whole response envelope: a soap:Fault becomes a *Fault, the
// element want is decoded into v, anything else is ErrBadResponse. It is what gosoap's
// envelope decoding followed by decodeResponse did, in one pass for the hot responses
// (*GetTripsResponse, *RelevantFlightsResponse, *SellerPage): the fast decoder reads them, and
// hands anything it does not accept — a fault, a refusal, XML outside its subset — to
// slowDecode, which is that two-step encoding/xml decoding itself. FuzzDecodeEnvelope checks
// that the fast decoder accepts nothing encoding/xml refuses and decodes what it accepts into
// the same values, so callers cannot tell which one ran, except by the time it took.
func decodeEnvelope(raw []byte, want string, v any) error {
	if fastDecode(raw, want, v) {
		return nil
	}
	return slowDecode(raw, want, v)
}

// slowDecode decodes a response envelope with encoding/xml as the client did through gosoap:
// the envelope (gosoap's SoapEnvelope: a root named Envelope, its last child named Body, in any
// namespace) with the body as raw inner XML, then that inner XML with decodeResponse.
func slowDecode(raw []byte, want string, v any) error {
	var env struct {
		XMLName struct{} `xml:"Envelope"`
		Body    struct {
			Contents []byte `xml:",innerxml"`
		} `xml:"Body"`
	}
	if err := xml.NewDecoder(bytes.NewReader(raw)).Decode(&env); err != nil {
		return fmt.Errorf("%w: envelope: %v", ErrBadResponse, err)
	}
	return decodeResponse(env.Body.Contents, want, v)
}

// fastDecode decodes raw into v, one of the hot response types, and reports whether it did;
// when it did not, v is untouched.
func fastDecode(raw []byte, want string, v any) bool {
	d := decoders.Get().(*decoder)
	defer d.release()
	d.Reset(raw)
	switch v := v.(type) {
	case *GetTripsResponse:
		var r GetTripsResponse
		if d.envelope(want, func(name xml.Name) { r.XMLName = name; d.getTrips(&r) }) {
			*v = r
			return true
		}
	case *RelevantFlightsResponse:
		var r RelevantFlightsResponse
		if d.envelope(want, func(name xml.Name) { r.XMLName = name; d.relevant(&r) }) {
			*v = r
			return true
		}
	case *RelevantBothResponse:
		var r RelevantBothResponse
		if d.envelope(want, func(name xml.Name) { r.XMLName = name; d.relevantBoth(&r) }) {
			*v = r
			return true
		}
	case *SellerPage:
		var r SellerPage
		if d.envelope(want, func(name xml.Name) { r.XMLName = name; d.sellerPage(&r) }) {
			*v = r
			return true
		}
	}
	return false
}

// decoder is the fast decoder of one answer: an XML scanner (package xmlcodec), which it reads
// as gosoap reads an envelope and as encoding/xml fills the hot types (codec_decode_types.go).
type decoder struct {
	xmlcodec.Scanner
	legs    []Leg // the chunk the current answer's trips take their legs from
	indexes []int // and their leg indexes
}

var decoders = sync.Pool{New: func() any { return new(decoder) }}

// release returns the decoder to the pool, keeping its buffers and its interned strings.
func (d *decoder) release() {
	d.Reset(nil)
	d.legs, d.indexes = nil, nil // the answer's trips hold them
	decoders.Put(d)
}

// envelope reads the document as gosoap's SoapEnvelope does — text and comments before a root
// element named Envelope, whose one child named Body holds the response — and calls body at the
// response element want with its name. What follows the root element is not read.
func (d *decoder) envelope(want string, body func(xml.Name)) bool {
	var t xmlcodec.Token
	for d.Next(&t) && t.Kind != xmlcodec.StartElement {
	}
	if d.Failed() || string(t.Local) != "Envelope" {
		return false
	}
	seen := false
	for d.NextChild(&t) {
		if string(t.Local) != "Body" {
			d.Skip()
			continue
		}
		if seen || !d.body(want, body) {
			return false // encoding/xml keeps the last Body: rare enough to leave to it
		}
		seen = true
	}
	return seen && !d.Failed()
}

// body reads soap:Body's content as decodeResponse reads the inner XML: white space, comments
// and processing instructions, then the element want, then anything up to the end of Body.
// The response element's name is the one decodeResponse saw: that of the inner XML decoded on
// its own, where only the element's own namespace declarations count.
func (d *decoder) body(want string, decode func(xml.Name)) bool {
	var t xmlcodec.Token
	d.CollectNamespaces(true)
	for d.Next(&t) && t.Kind == xmlcodec.CharData && len(bytes.TrimSpace(t.Text)) == 0 {
	}
	d.CollectNamespaces(false)
	if d.Failed() || t.Kind != xmlcodec.StartElement || string(t.Local) != want {
		return false // a fault, another element, text: encoding/xml decides
	}
	decode(d.StandaloneName(&t))
	if d.Failed() {
		return false
	}
	d.Skip() // the rest of soap:Body
	return !d.Failed()
}
