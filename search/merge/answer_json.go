package merge

import (
	"encoding/json"
	"strconv"
)

// AppendJSON appends the answer as JSON to dst: exactly the bytes encoding/json's Marshal writes
// for it (the same fields in the same order, the same omissions, the same escaping), several
// times faster, since a search answer can be thousands of trips. answer_json_test.go holds it
// to that, and fails when a field is added to one of the answer's types and not here.
func (a *Answer) AppendJSON(dst []byte) []byte {
	return a.appendJSON(dst, func(dst []byte) []byte {
		if a.Trips == nil {
			return append(dst, "null"...)
		}
		dst = append(dst, '[')
		for i := range a.Trips {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = a.Trips[i].appendJSON(dst)
		}
		return append(dst, ']')
	})
}

// appendJSON appends the answer's JSON, its trips written by trips.
func (a *Answer) appendJSON(dst []byte, trips func([]byte) []byte) []byte {
	dst = append(dst, `{"query":`...)
	dst = a.Query.appendJSON(dst)
	dst = append(dst, `,"total":`...)
	dst = strconv.AppendInt(dst, int64(a.Total), 10)
	dst = append(dst, `,"trips":`...)
	dst = trips(dst)
	dst = append(dst, `,"complete":`...)
	dst = strconv.AppendBool(dst, a.Complete)
	dst = append(dst, `,"alliances":`...)
	if a.Alliances == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i := range a.Alliances {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = a.Alliances[i].appendJSON(dst)
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

func (q *QueryEcho) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"src":`...)
	dst = appendString(dst, q.Src)
	dst = append(dst, `,"dst":`...)
	dst = appendString(dst, q.Dst)
	dst = append(dst, `,"date":`...)
	dst = appendString(dst, q.Date)
	if len(q.Servers) > 0 {
		dst = append(dst, `,"servers":`...)
		dst = appendStrings(dst, q.Servers)
	}
	if q.Limit != 0 {
		dst = append(dst, `,"limit":`...)
		dst = strconv.AppendInt(dst, int64(q.Limit), 10)
	}
	if q.Offset != 0 {
		dst = append(dst, `,"offset":`...)
		dst = strconv.AppendInt(dst, int64(q.Offset), 10)
	}
	if q.Nonstop {
		dst = append(dst, `,"nonstop":true`...)
	}
	if q.MaxPrice != "" {
		dst = append(dst, `,"max_price":`...)
		dst = appendString(dst, q.MaxPrice)
	}
	if q.Sort != "" {
		dst = append(dst, `,"sort":`...)
		dst = appendString(dst, q.Sort)
	}
	return append(dst, '}')
}

func (t *Trip) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"price":`...)
	dst = appendString(dst, t.Price)
	dst = append(dst, `,"legs":`...)
	if t.Legs == nil {
		return append(dst, "null}"...)
	}
	dst = append(dst, '[')
	for i := range t.Legs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = t.Legs[i].appendJSON(dst)
	}
	return append(dst, "]}"...)
}

func (l *Leg) appendJSON(dst []byte) []byte {
	return appendLegJSON(dst, l.Flight, l.Seller, l.Alliance, l.Src, l.Dst, l.Departure, l.Arrival, l.Price, l.Seats)
}

func appendLegJSON(dst []byte, flight, seller, alliance, src, dstAirport, departure, arrival, price string, seats int) []byte {
	dst = append(dst, `{"flight":`...)
	dst = appendString(dst, flight)
	dst = append(dst, `,"seller":`...)
	dst = appendString(dst, seller)
	dst = append(dst, `,"alliance":`...)
	dst = appendString(dst, alliance)
	dst = append(dst, `,"src":`...)
	dst = appendString(dst, src)
	dst = append(dst, `,"dst":`...)
	dst = appendString(dst, dstAirport)
	dst = append(dst, `,"departure":`...)
	dst = appendString(dst, departure)
	dst = append(dst, `,"arrival":`...)
	dst = appendString(dst, arrival)
	dst = append(dst, `,"price":`...)
	dst = appendString(dst, price)
	dst = append(dst, `,"seats":`...)
	dst = strconv.AppendInt(dst, int64(seats), 10)
	return append(dst, '}')
}

func (s *AllianceStatus) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"name":`...)
	dst = appendString(dst, s.Name)
	dst = append(dst, `,"complete":`...)
	dst = strconv.AppendBool(dst, s.Complete)
	dst = append(dst, `,"missing_sellers":`...)
	if s.MissingSellers == nil {
		dst = append(dst, "null"...)
	} else {
		dst = appendStrings(dst, s.MissingSellers)
	}
	if s.Error != "" {
		dst = append(dst, `,"error":`...)
		dst = appendString(dst, s.Error)
	}
	return append(dst, '}')
}

func appendStrings(dst []byte, ss []string) []byte {
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, s)
	}
	return append(dst, ']')
}

// appendString appends s as a JSON string. Codes, numbers, instants and prices need no escaping
// and are copied as they are; anything else is left to encoding/json, so that the bytes stay
// exactly its bytes (HTML-safe escapes, \ufffd for invalid UTF-8, escaped U+2028 and U+2029).
func appendString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if !plain[s[i]] {
			b, _ := json.Marshal(s) // a string always marshals
			return append(dst, b...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// plain are the bytes encoding/json writes as they are in a string.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()
