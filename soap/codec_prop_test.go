package soap

import (
	"bytes"
	"encoding/xml"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// awkward strings: markup, references, CDATA and comment look-alikes, white space at the edges,
// line ends, characters beyond ASCII, characters XML does not allow, bytes that are not UTF-8.
var awkward = []string{"", " ", "<", ">", "&", `"`, "'", "]]>", "&amp;", "&#65;", "<![CDATA[x]]>", "<!--c-->",
	"a\r\nb", "\r", "\n", "\t", " lead", "trail ", "é", "日本語", "\U0001F600", "\u0085\u00a0", "\uFFFD",
	"\x00", "\x1f", "\xff", "\xed\xa0\x80", "\uFFFE", "a\xc3", "LY001", "2026-12-01T08:00:00Z", "512.00"}

func awkwardString() *rapid.Generator[string] {
	return rapid.OneOf(
		rapid.SampledFrom(awkward),
		rapid.String(),
		rapid.Map(rapid.SliceOfN(rapid.SampledFrom(awkward), 0, 4), func(parts []string) string { return strings.Join(parts, "") }),
		rapid.Map(rapid.SliceOf(rapid.Byte()), func(b []byte) string { return string(b) }),
	)
}

// listOf draws 0 to max items, nil for none: what decoding an absent list gives.
func listOf[E any](t *rapid.T, label string, elem *rapid.Generator[E], max int) []E {
	list := rapid.SliceOfN(elem, 0, max).Draw(t, label)
	if len(list) == 0 {
		return nil
	}
	return list
}

func genTrips(t *rapid.T) *GetTripsResponse {
	str := awkwardString()
	leg := rapid.Custom(func(t *rapid.T) Leg {
		return Leg{Flight: str.Draw(t, "flight"), Seller: str.Draw(t, "seller"), Alliance: str.Draw(t, "alliance"),
			Src: str.Draw(t, "src"), Dst: str.Draw(t, "dst"), Departure: str.Draw(t, "departure"),
			Arrival: str.Draw(t, "arrival"), Price: str.Draw(t, "price"), Seats: rapid.Int().Draw(t, "seats")}
	})
	trip := rapid.Custom(func(t *rapid.T) Trip {
		return Trip{Price: str.Draw(t, "price"), Legs: listOf(t, "legs", leg, 3), LegIndexes: listOf(t, "indexes", rapid.Int(), 3)}
	})
	return &GetTripsResponse{Alliance: str.Draw(t, "alliance"), SharedLegs: listOf(t, "shared", leg, 3), Trips: listOf(t, "trips", trip, 4),
		Complete: rapid.Bool().Draw(t, "complete"), MissingSellers: listOf(t, "missing", str, 3), Total: rapid.Int().Draw(t, "total")}
}

func genFlights(t *rapid.T) []Flight {
	str := awkwardString()
	return listOf(t, "flights", rapid.Custom(func(t *rapid.T) Flight {
		return Flight{Flight: str.Draw(t, "flight"), Seller: str.Draw(t, "seller"), Src: str.Draw(t, "src"),
			Dst: str.Draw(t, "dst"), Departure: str.Draw(t, "departure"), Arrival: str.Draw(t, "arrival"),
			Price: str.Draw(t, "price"), Seats: rapid.Int().Draw(t, "seats")}
	}), 4)
}

// TestCodecRoundTrip: random hot responses, awkward strings included, encoded by the fast
// encoder are the bytes encoding/xml writes; encoding/xml decodes them back to the original
// (strings as the encoder must change them: see sanitized), and so does the fast decoder, which
// must accept every answer the encoder writes.
func TestCodecRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var name string
		var v, ref, fast any
		switch rapid.IntRange(0, 3).Draw(t, "type") {
		case 0:
			name, v, ref, fast = "getTripsResponse", genTrips(t), new(GetTripsResponse), new(GetTripsResponse)
		case 3:
			name = "getRelevantFlightsResponse"
			v = &RelevantBothResponse{Sellers: listOf(t, "sellers", awkwardString(), 3), FromSrc: genFlights(t), ToDst: genFlights(t)}
			ref, fast = new(RelevantBothResponse), new(RelevantBothResponse)
		case 1:
			str := awkwardString()
			name = rapid.SampledFrom([]string{"getRelevantFlightsBySrcResponse", "getRelevantFlightsByDstResponse", "getFlightsResponse"}).Draw(t, "name")
			v = &RelevantFlightsResponse{Sellers: listOf(t, "sellers", str, 3), Flights: genFlights(t)}
			ref, fast = new(RelevantFlightsResponse), new(RelevantFlightsResponse)
		default:
			str := awkwardString()
			name = rapid.SampledFrom([]string{"sendPrimarySellerResponse", "sendBackupSellerResponse"}).Draw(t, "name")
			v = &SellerPage{Seller: str.Draw(t, "seller"), Version: str.Draw(t, "version"), Flights: genFlights(t), NextCursor: str.Draw(t, "cursor")}
			ref, fast = new(SellerPage), new(SellerPage)
		}
		got, ok := appendResponseEnvelope(nil, name, v)
		var want bytes.Buffer
		if err := writeEnvelope(&want, name, v); err != nil || !ok {
			t.Fatalf("encode: %v, %v", err, ok)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("fast encoder wrote\n%q\nencoding/xml wrote\n%q", got, want.Bytes())
		}
		expected := sanitized(v, xml.Name{Space: Namespace, Local: name})
		if err := referenceDecode(got, name, ref); err != nil || !reflect.DeepEqual(ref, expected) {
			t.Fatalf("encoding/xml decodes %+v (%v), want %+v", ref, err, expected)
		}
		if !fastDecode(got, name, fast) {
			t.Fatalf("the fast decoder defers an answer of the encoder:\n%q", got)
		}
		if !reflect.DeepEqual(fast, expected) {
			t.Fatalf("the fast decoder decodes %+v, want %+v", fast, expected)
		}
	})
}

// sanitized is v as it comes back from the wire: named name, every string with the bytes that
// are not UTF-8 and the characters XML does not allow replaced by U+FFFD (the spec's Char
// production, written out again here), and no empty string in the lists tagged omitempty,
// which encoding/xml leaves out item by item.
func sanitized(v any, name xml.Name) any {
	clean := func(s string) string {
		var b strings.Builder
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			ok := !(r == utf8.RuneError && size == 1) && (r == '\t' || r == '\n' || r == '\r' ||
				0x20 <= r && r <= 0xD7FF || 0xE000 <= r && r <= 0xFFFD || 0x10000 <= r && r <= 0x10FFFF)
			if ok {
				b.WriteString(s[i : i+size])
			} else {
				b.WriteRune(utf8.RuneError)
			}
			i += size
		}
		return b.String()
	}
	out := reflect.New(reflect.TypeOf(v).Elem())
	out.Elem().Set(reflect.ValueOf(v).Elem())
	var walk func(reflect.Value)
	walk = func(x reflect.Value) {
		switch x.Kind() {
		case reflect.String:
			x.SetString(clean(x.String()))
		case reflect.Struct:
			for i := range x.NumField() {
				walk(x.Field(i))
				if f := x.Field(i); f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.String &&
					strings.Contains(x.Type().Field(i).Tag.Get("xml"), "omitempty") {
					var kept []string
					for _, s := range f.Interface().([]string) {
						if s != "" {
							kept = append(kept, s)
						}
					}
					f.Set(reflect.ValueOf(kept))
				}
			}
		case reflect.Slice:
			if x.IsNil() {
				return
			}
			c := reflect.MakeSlice(x.Type(), x.Len(), x.Len())
			reflect.Copy(c, x)
			x.Set(c)
			for i := range x.Len() {
				walk(x.Index(i))
			}
		}
	}
	walk(out.Elem())
	out.Elem().FieldByName("XMLName").Set(reflect.ValueOf(name))
	return out.Interface()
}
