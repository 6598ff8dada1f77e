package soap

import (
	"bytes"
	"encoding/xml"
	"reflect"
	"strconv"
	"testing"
)

// FuzzEncodeResponse: whatever the strings and numbers, the fast encoder writes the bytes
// encoding/xml writes for all three hot types, and the fast decoder reads them back as
// encoding/xml does (see checkDecoder), without deferring.
func FuzzEncodeResponse(f *testing.F) {
	for _, s := range awkward {
		f.Add(s, "LY", "2026-12-01T08:00:00Z", 180, true)
	}
	f.Add("", "", "", 0, false)
	f.Add("a\xffb", "]]>", "&#x9;\r\n", -1<<63, false)
	f.Fuzz(func(t *testing.T, a, b, c string, n int, flag bool) {
		leg := Leg{Flight: a, Seller: b, Alliance: c, Src: a + b, Dst: c, Departure: b, Arrival: a, Price: c, Seats: n}
		flight := Flight{Flight: c, Seller: a, Src: b, Dst: a, Departure: c, Arrival: b, Price: a, Seats: -n}
		for _, tc := range []struct {
			name  string
			v     any
			fresh func() any
		}{
			{"getTripsResponse", &GetTripsResponse{Alliance: a, Trips: []Trip{{Price: b, Legs: []Leg{leg, leg}}, {Price: c}},
				Complete: flag, MissingSellers: []string{a, b, c}, Total: n}, func() any { return new(GetTripsResponse) }},
			{"getFlightsResponse", &RelevantFlightsResponse{Sellers: []string{c, b}, Flights: []Flight{flight}},
				func() any { return new(RelevantFlightsResponse) }},
			{"sendBackupSellerResponse", &SellerPage{Seller: a, Version: b, Flights: []Flight{flight, flight}, NextCursor: c},
				func() any { return new(SellerPage) }},
		} {
			got, ok := appendResponseEnvelope(nil, tc.name, tc.v)
			var want bytes.Buffer
			if err := writeEnvelope(&want, tc.name, tc.v); err != nil || !ok {
				t.Fatalf("%s: %v, %v", tc.name, err, ok)
			}
			if !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("%s: fast encoder wrote\n%q\nencoding/xml wrote\n%q", tc.name, got, want.Bytes())
			}
			if !checkDecoder(t, got, tc.name, tc.fresh) {
				t.Fatalf("%s: the fast decoder defers an answer of the encoder:\n%q", tc.name, got)
			}
		}
	})
}

// TestFastEncoderFallsBack: types the fast encoder does not know, and nil answers, are left to
// encoding/xml.
func TestFastEncoderFallsBack(t *testing.T) {
	for _, v := range []any{&ReserveResponse{}, &BookingResponse{}, (*GetTripsResponse)(nil), (*SellerPage)(nil),
		(*RelevantFlightsResponse)(nil), GetTripsResponse{}} {
		if b, ok := appendResponseEnvelope([]byte("x"), "r", v); ok || string(b) != "x" {
			t.Errorf("%T: encoded %q", v, b)
		}
	}
}

// TestCodecKnowsEveryField fills every field of the hot types (recursively, lists with two
// items) with distinct values: the fast encoder must write what encoding/xml writes and the
// fast decoder read what encoding/xml reads. A field added to types.go and not to the codec
// fails here.
func TestCodecKnowsEveryField(t *testing.T) {
	n := 0
	var fill func(v reflect.Value)
	fill = func(v reflect.Value) {
		n++
		switch v.Kind() {
		case reflect.String:
			v.SetString("v" + strconv.Itoa(n))
		case reflect.Int:
			v.SetInt(int64(n))
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Slice:
			v.Set(reflect.MakeSlice(v.Type(), 2, 2))
			fill(v.Index(0))
			fill(v.Index(1))
		case reflect.Struct:
			if v.Type() == reflect.TypeFor[xml.Name]() {
				return
			}
			for i := range v.NumField() {
				fill(v.Field(i))
			}
		default:
			t.Fatalf("the codec test does not know %s", v.Type())
		}
	}
	for name, v := range map[string]any{
		"getTripsResponse": new(GetTripsResponse), "getFlightsResponse": new(RelevantFlightsResponse), "sendPrimarySellerResponse": new(SellerPage),
	} {
		fill(reflect.ValueOf(v).Elem())
		got, _ := appendResponseEnvelope(nil, name, v)
		var want bytes.Buffer
		if err := writeEnvelope(&want, name, v); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%T: fast encoder wrote\n%s\nencoding/xml wrote\n%s", v, got, want.Bytes())
		}
		fresh := func() any { return reflect.New(reflect.TypeOf(v).Elem()).Interface() }
		if !checkDecoder(t, want.Bytes(), name, fresh) {
			t.Errorf("%T: the fast decoder defers", v)
		}
		back := fresh()
		_ = fastDecode(want.Bytes(), name, back)
		if !reflect.DeepEqual(clearNames(back), v) {
			t.Errorf("%T: decoded %+v, want %+v", v, back, v)
		}
	}
}
