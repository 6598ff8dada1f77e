package soap

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"sync"
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
	s := scanners.Get().(*scanner)
	defer s.release()
	s.b = raw
	switch v := v.(type) {
	case *GetTripsResponse:
		var r GetTripsResponse
		if s.envelope(want, func(name xml.Name) { r.XMLName = name; s.getTrips(&r) }) {
			*v = r
			return true
		}
	case *RelevantFlightsResponse:
		var r RelevantFlightsResponse
		if s.envelope(want, func(name xml.Name) { r.XMLName = name; s.relevant(&r) }) {
			*v = r
			return true
		}
	case *SellerPage:
		var r SellerPage
		if s.envelope(want, func(name xml.Name) { r.XMLName = name; s.sellerPage(&r) }) {
			*v = r
			return true
		}
	}
	return false
}

var scanners = sync.Pool{New: func() any { return new(scanner) }}

// release returns the scanner to the pool, keeping its buffers and its interned strings.
func (s *scanner) release() {
	s.b, s.i, s.bad, s.needClose, s.collect = nil, 0, false, false, false
	s.stack, s.decls = s.stack[:0], s.decls[:0]
	s.legs = nil // the answer's trips hold it
	if cap(s.buf) > 64<<10 {
		s.buf = nil
	}
	if cap(s.acc) > 64<<10 {
		s.acc = nil
	}
	scanners.Put(s)
}

// envelope reads the document as gosoap's SoapEnvelope does — text and comments before a root
// element named Envelope, whose one child named Body holds the response — and calls body at the
// response element want with its name. What follows the root element is not read.
func (s *scanner) envelope(want string, body func(xml.Name)) bool {
	var t token
	for s.next(&t) && t.kind != tkStart {
	}
	if s.bad || string(t.local) != "Envelope" {
		return false
	}
	seen := false
	for s.next(&t) {
		switch {
		case t.kind == tkEnd:
			return seen && !s.bad
		case t.kind == tkStart && string(t.local) == "Body":
			if seen || !s.body(want, body) {
				return false // encoding/xml keeps the last Body: rare enough to leave to it
			}
			seen = true
		case t.kind == tkStart:
			s.skip()
		}
	}
	return false
}

// body reads soap:Body's content as decodeResponse reads the inner XML: white space, comments
// and processing instructions, then the element want, then anything up to the end of Body.
func (s *scanner) body(want string, decode func(xml.Name)) bool {
	var t token
	s.collect = true
	for s.next(&t) && t.kind == tkText && len(bytes.TrimSpace(t.text)) == 0 {
	}
	s.collect = false
	if s.bad || t.kind != tkStart || string(t.local) != want {
		return false // a fault, another element, text: encoding/xml decides
	}
	decode(s.responseName(t.name))
	if s.bad {
		return false
	}
	s.skip() // the rest of soap:Body
	return !s.bad
}

// responseName is the response element's name as decodeResponse saw it: the inner XML of
// soap:Body decoded on its own, so only the element's own namespace declarations count.
func (s *scanner) responseName(raw []byte) xml.Name {
	var n xml.Name
	if prefix, local, ok := splitName(raw); ok {
		n = xml.Name{Space: string(prefix), Local: string(local)}
	} else {
		n = xml.Name{Local: string(raw)}
	}
	switch {
	case n.Space == "xmlns", n.Space == "" && n.Local == "xmlns":
		return n
	case n.Space == "xml":
		n.Space = "http://www.w3.org/XML/1998/namespace"
		return n
	}
	// As encoding/xml's translate: the element's declaration of its prefix (the last one, if
	// it declares it twice), else the prefix itself, and no namespace for no prefix.
	prefix := n.Space
	for _, d := range s.decls {
		if d.prefix == prefix {
			n.Space = d.value
		}
	}
	return n
}

// skip reads the rest of the element just started, through its end.
func (s *scanner) skip() {
	depth := 0
	var t token
	for s.next(&t) {
		switch t.kind {
		case tkStart:
			depth++
		case tkEnd:
			if depth == 0 {
				return
			}
			depth--
		}
	}
}
