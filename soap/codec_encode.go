package soap

import (
	"bytes"

	"flightalliance/soap/xmlcodec"
)

// The fast encoder writes the hot responses — getTripsResponse, the RelevantFlightsResponse
// of getRelevantFlightsBySrc/ByDst and getFlights, the RelevantBothResponse of
// getRelevantFlights, the SellerPage of sendPrimarySeller and
// sendBackupSeller — byte for byte as writeEnvelope does with encoding/xml: the same envelope
// and declarations, the same elements in field order (never self-closed, omitempty slices,
// strings and empty strings in omitempty lists left out), and text escaped as encoding/xml's
// Encoder escapes it, invalid UTF-8 and characters XML does not allow included (xmlcodec's
// Append functions). Being identical, it needs no interoperability argument of its own:
// TestCodecRoundTrip and FuzzEncodeResponse compare the bytes. It appends to a byte slice and
// allocates nothing else.

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
		b = xmlcodec.AppendOmitEmpty(b, "Sellers", r.Sellers)
		b = appendFlights(b, r.Flights)
	case *RelevantBothResponse:
		if r == nil {
			return b, false
		}
		b = appendResponseStart(b, name)
		b = xmlcodec.AppendOmitEmpty(b, "Sellers", r.Sellers)
		b = appendFlightsAs(b, "<FromSrc>", "</FromSrc>", r.FromSrc)
		b = appendFlightsAs(b, "<ToDst>", "</ToDst>", r.ToDst)
	case *SellerPage:
		if r == nil {
			return b, false
		}
		b = appendResponseStart(b, name)
		b = xmlcodec.AppendElement(b, "Seller", r.Seller)
		b = xmlcodec.AppendElement(b, "Version", r.Version)
		b = appendFlights(b, r.Flights)
		if r.NextCursor != "" {
			b = xmlcodec.AppendElement(b, "NextCursor", r.NextCursor)
		}
	default:
		return b, false
	}
	b = xmlcodec.AppendEndTag(b, name)
	return append(b, envClose...), true
}

// encode encodes a response envelope into a pooled buffer (xmlcodec.PutBuffer it once
// written): the hot responses with the fast encoder, which writes the same bytes as encoding/xml
// several times faster, the others with encoding/xml.
func (h *handler) encode(name string, resp any) (*[]byte, error) {
	buf := xmlcodec.GetBuffer()
	if n := sizeHint(resp) + 2*len(name) + len(xmlHeader) + len(envClose) + 512; cap(*buf) < n {
		xmlcodec.PutBuffer(buf)
		b := make([]byte, 0, n)
		buf = &b
	}
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
// element's start tag, as writeEnvelope writes them.
func appendResponseStart(b []byte, name string) []byte {
	return appendBodyStart(append(b, xmlHeader...), name, Namespace)
}

func appendGetTrips(b []byte, r *GetTripsResponse) []byte {
	b = xmlcodec.AppendElement(b, "Alliance", r.Alliance)
	for i := range r.SharedLegs {
		b = appendLeg(b, "<SharedLegs>", "</SharedLegs>", &r.SharedLegs[i])
	}
	for i := range r.Trips {
		t := &r.Trips[i]
		b = append(b, "<Trips>"...)
		b = xmlcodec.AppendElement(b, "Price", t.Price)
		for j := range t.Legs {
			b = appendLeg(b, "<Legs>", "</Legs>", &t.Legs[j])
		}
		for _, k := range t.LegIndexes {
			b = xmlcodec.AppendIntElement(b, "LegIndexes", k)
		}
		b = append(b, "</Trips>"...)
	}
	b = xmlcodec.AppendBoolElement(b, "Complete", r.Complete)
	b = xmlcodec.AppendOmitEmpty(b, "MissingSellers", r.MissingSellers)
	b = xmlcodec.AppendIntElement(b, "Total", r.Total)
	if r.ETag != "" {
		b = xmlcodec.AppendElement(b, "ETag", r.ETag)
	}
	if r.NotModified {
		b = xmlcodec.AppendBoolElement(b, "NotModified", true)
	}
	return b
}

// appendLeg appends a leg as the element of start and end tags.
func appendLeg(b []byte, start, end string, l *Leg) []byte {
	b = append(b, start...)
	b = xmlcodec.AppendElement(b, "Flight", l.Flight)
	b = xmlcodec.AppendElement(b, "Seller", l.Seller)
	b = xmlcodec.AppendElement(b, "Alliance", l.Alliance)
	b = xmlcodec.AppendElement(b, "Src", l.Src)
	b = xmlcodec.AppendElement(b, "Dst", l.Dst)
	b = xmlcodec.AppendElement(b, "Departure", l.Departure)
	b = xmlcodec.AppendElement(b, "Arrival", l.Arrival)
	b = xmlcodec.AppendElement(b, "Price", l.Price)
	b = xmlcodec.AppendIntElement(b, "Seats", l.Seats)
	return append(b, end...)
}

func appendFlights(b []byte, flights []Flight) []byte {
	return appendFlightsAs(b, "<Flights>", "</Flights>", flights)
}

// appendFlightsAs appends flights, each as the element of start and end tags.
func appendFlightsAs(b []byte, start, end string, flights []Flight) []byte {
	for i := range flights {
		f := &flights[i]
		b = append(b, start...)
		b = xmlcodec.AppendElement(b, "Flight", f.Flight)
		b = xmlcodec.AppendElement(b, "Seller", f.Seller)
		b = xmlcodec.AppendElement(b, "Src", f.Src)
		b = xmlcodec.AppendElement(b, "Dst", f.Dst)
		b = xmlcodec.AppendElement(b, "Departure", f.Departure)
		b = xmlcodec.AppendElement(b, "Arrival", f.Arrival)
		b = xmlcodec.AppendElement(b, "Price", f.Price)
		b = xmlcodec.AppendIntElement(b, "Seats", f.Seats)
		b = append(b, end...)
	}
	return b
}
