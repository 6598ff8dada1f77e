package soap

import (
	"bytes"
	"strconv"
	"sync"
	"unicode/utf8"
)

// The fast encoder writes the hot responses — getTripsResponse, the RelevantFlightsResponse
// of getRelevantFlightsBySrc/ByDst and getFlights, the SellerPage of sendPrimarySeller and
// sendBackupSeller — byte for byte as writeEnvelope does with encoding/xml: the same envelope
// and declarations, the same elements in field order (never self-closed, omitempty slices,
// strings and empty strings in omitempty lists left out), and text escaped as encoding/xml's Encoder escapes it, invalid UTF-8 and
// characters XML does not allow included. Being identical, it needs no interoperability
// argument of its own: TestFastEncoderMatchesEncodingXML and FuzzEncodeResponse compare the
// bytes. It appends to a byte slice and allocates nothing else.

// appendResponseEnvelope appends the whole response envelope of resp as the element name, and
// reports false (appending nothing) for a type it does not know, which writeEnvelope encodes.
func appendResponseEnvelope(b []byte, name string, resp any) ([]byte, bool) {
	switch r := resp.(type) {
	case *GetTripsResponse:
		if r == nil {
			return b, false
		}
		b = appendResponseStart(b, name)
		b = appendGetTrips(b, r)
	case *RelevantFlightsResponse:
		if r == nil {
			return b, false
		}
		b = appendResponseStart(b, name)
		b = appendOmitEmpty(b, "Sellers", r.Sellers)
		b = appendFlights(b, r.Flights)
	case *SellerPage:
		if r == nil {
			return b, false
		}
		b = appendResponseStart(b, name)
		b = appendElement(b, "Seller", r.Seller)
		b = appendElement(b, "Version", r.Version)
		b = appendFlights(b, r.Flights)
		if r.NextCursor != "" {
			b = appendElement(b, "NextCursor", r.NextCursor)
		}
	default:
		return b, false
	}
	b = append(b, "</"...)
	b = append(b, name...)
	b = append(b, '>')
	return append(b, envClose...), true
}

// encode encodes a response envelope into a pooled buffer (putBuffer it once written): the hot
// responses with the fast encoder (codec_encode.go), which writes the same bytes as
// encoding/xml several times faster, the others with encoding/xml.
func (h *handler) encode(name string, resp any) (*[]byte, error) {
	buf := getBuffer()
	if b, ok := appendResponseEnvelope(*buf, name, resp); ok {
		*buf = b
		return buf, nil
	}
	w := bytes.NewBuffer(*buf)
	if err := writeEnvelope(w, name, resp); err != nil {
		return nil, err
	}
	*buf = w.Bytes()
	return buf, nil
}

// appendResponseStart appends the XML declaration, the envelope's start and the response
// element's start tag, which declares the namespace itself (see writeEnvelope).
func appendResponseStart(b []byte, name string) []byte {
	b = append(b, xmlHeader...)
	b = append(b, envOpen...)
	b = append(b, '<')
	b = append(b, name...)
	b = append(b, ` xmlns="`...)
	b = appendText(b, Namespace)
	return append(b, `">`...)
}

func appendGetTrips(b []byte, r *GetTripsResponse) []byte {
	b = appendElement(b, "Alliance", r.Alliance)
	for i := range r.Trips {
		t := &r.Trips[i]
		b = append(b, "<Trips>"...)
		b = appendElement(b, "Price", t.Price)
		for j := range t.Legs {
			l := &t.Legs[j]
			b = append(b, "<Legs>"...)
			b = appendElement(b, "Flight", l.Flight)
			b = appendElement(b, "Seller", l.Seller)
			b = appendElement(b, "Alliance", l.Alliance)
			b = appendElement(b, "Src", l.Src)
			b = appendElement(b, "Dst", l.Dst)
			b = appendElement(b, "Departure", l.Departure)
			b = appendElement(b, "Arrival", l.Arrival)
			b = appendElement(b, "Price", l.Price)
			b = appendInt(b, "Seats", l.Seats)
			b = append(b, "</Legs>"...)
		}
		b = append(b, "</Trips>"...)
	}
	b = append(b, "<Complete>"...)
	b = strconv.AppendBool(b, r.Complete)
	b = append(b, "</Complete>"...)
	b = appendOmitEmpty(b, "MissingSellers", r.MissingSellers)
	return appendInt(b, "Total", r.Total)
}

func appendFlights(b []byte, flights []Flight) []byte {
	for i := range flights {
		f := &flights[i]
		b = append(b, "<Flights>"...)
		b = appendElement(b, "Flight", f.Flight)
		b = appendElement(b, "Seller", f.Seller)
		b = appendElement(b, "Src", f.Src)
		b = appendElement(b, "Dst", f.Dst)
		b = appendElement(b, "Departure", f.Departure)
		b = appendElement(b, "Arrival", f.Arrival)
		b = appendElement(b, "Price", f.Price)
		b = appendInt(b, "Seats", f.Seats)
		b = append(b, "</Flights>"...)
	}
	return b
}

// appendOmitEmpty appends a list of strings tagged omitempty as encoding/xml does: the tag
// applies to each item, so empty strings are left out.
func appendOmitEmpty(b []byte, name string, list []string) []byte {
	for _, s := range list {
		if s != "" {
			b = appendElement(b, name, s)
		}
	}
	return b
}

// appendElement appends <name>text</name>.
func appendElement(b []byte, name, text string) []byte {
	b = append(b, '<')
	b = append(b, name...)
	b = append(b, '>')
	b = appendText(b, text)
	b = append(b, "</"...)
	b = append(b, name...)
	return append(b, '>')
}

func appendInt(b []byte, name string, v int) []byte {
	b = append(b, '<')
	b = append(b, name...)
	b = append(b, '>')
	b = strconv.AppendInt(b, int64(v), 10)
	b = append(b, "</"...)
	b = append(b, name...)
	return append(b, '>')
}

// appendText appends s escaped as encoding/xml's Encoder escapes text and attribute values
// (printer.EscapeString): the five markup characters, tab and line ends as references, and
// every byte that is not UTF-8 or not an XML character as U+FFFD.
func appendText(b []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			esc := asciiEscape[c]
			if esc == "" {
				continue
			}
			b = append(b, s[last:i-1]...)
			b = append(b, esc...)
			last = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r == utf8.RuneError && size == 1 || !inCharRange(r) {
			b = append(b, s[last:i-size]...)
			b = append(b, "\uFFFD"...)
			last = i
		}
	}
	return append(b, s[last:]...)
}

// asciiEscape is what encoding/xml writes for an ASCII byte that is not written as itself.
var asciiEscape = func() (t [utf8.RuneSelf]string) {
	for c := range 0x20 {
		t[c] = "\uFFFD" // control characters are not XML characters
	}
	t['"'], t['\''], t['&'], t['<'], t['>'] = "&#34;", "&#39;", "&amp;", "&lt;", "&gt;"
	t['\t'], t['\n'], t['\r'] = "&#x9;", "&#xA;", "&#xD;"
	return t
}()

// envelopeBuffers recycles the buffers responses are encoded into; buffers over maxPooled are
// left to the garbage collector rather than kept for the next call.
var envelopeBuffers sync.Pool

const maxPooled = 8 << 20

func getBuffer() *[]byte {
	if p, ok := envelopeBuffers.Get().(*[]byte); ok {
		*p = (*p)[:0]
		return p
	}
	b := make([]byte, 0, 64<<10)
	return &b
}

func putBuffer(p *[]byte) {
	if cap(*p) <= maxPooled {
		envelopeBuffers.Put(p)
	}
}
