package merge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"flightalliance/contract"
	"flightalliance/soap"
)

// anyString draws strings that need no escaping, and strings that do: quotes, backslashes,
// control characters, HTML's <, > and &, U+2028, non-ASCII and invalid UTF-8.
func anyString(t *rapid.T, label string) string {
	return rapid.OneOf(
		rapid.SampledFrom([]string{"", "LY001", "2026-12-01T08:00:00Z", "512.00", "star", "TLV"}),
		rapid.SampledFrom([]string{`a"b`, `back\slash`, "tab\there", "nl\n", "\x00\x1f\x7f", "<script>&amp;", "\u2028\u2029", "é✈", "\xff\xfe", "\b\f\r"}),
		rapid.String(),
		rapid.Map(rapid.SliceOf(rapid.Byte()), func(b []byte) string { return string(b) }),
	).Draw(t, label)
}

func anyStrings(t *rapid.T, label string) []string {
	if rapid.IntRange(0, 4).Draw(t, label+"-nil") == 0 {
		return nil
	}
	return rapid.SliceOfN(rapid.Custom(func(t *rapid.T) string { return anyString(t, "s") }), 0, 3).Draw(t, label)
}

func anyAnswer(t *rapid.T) Answer {
	leg := func(t *rapid.T) Leg {
		return Leg{Flight: anyString(t, "flight"), Seller: anyString(t, "seller"), Alliance: anyString(t, "alliance"),
			Src: anyString(t, "src"), Dst: anyString(t, "dst"), Departure: anyString(t, "dep"), Arrival: anyString(t, "arr"),
			Price: anyString(t, "price"), Seats: rapid.Int().Draw(t, "seats")}
	}
	a := Answer{
		Query: QueryEcho{Src: anyString(t, "qsrc"), Dst: anyString(t, "qdst"), Date: anyString(t, "qdate"),
			Servers: anyStrings(t, "servers"), Limit: rapid.IntRange(-1, 1000).Draw(t, "limit"),
			Offset: rapid.Int().Draw(t, "offset"), Nonstop: rapid.Bool().Draw(t, "nonstop"),
			MaxPrice: anyString(t, "max_price"), Sort: anyString(t, "sort")},
		Total:    rapid.Int().Draw(t, "total"),
		Complete: rapid.Bool().Draw(t, "complete"),
	}
	if rapid.Bool().Draw(t, "trips-not-nil") {
		a.Trips = rapid.SliceOfN(rapid.Custom(func(t *rapid.T) Trip {
			tr := Trip{Price: anyString(t, "trip-price")}
			if rapid.Bool().Draw(t, "legs-not-nil") {
				tr.Legs = rapid.SliceOfN(rapid.Custom(leg), 0, 2).Draw(t, "legs")
			}
			return tr
		}), 0, 4).Draw(t, "trips")
	}
	if rapid.Bool().Draw(t, "alliances-not-nil") {
		a.Alliances = rapid.SliceOfN(rapid.Custom(func(t *rapid.T) AllianceStatus {
			return AllianceStatus{Name: anyString(t, "name"), Complete: rapid.Bool().Draw(t, "c"),
				MissingSellers: anyStrings(t, "missing"), Error: anyString(t, "error")}
		}), 0, 3).Draw(t, "alliances")
	}
	return a
}

// TestAppendJSONIsEncodingJSON: whatever the answer holds, AppendJSON writes exactly what
// json.Marshal writes.
func TestAppendJSONIsEncodingJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := anyAnswer(t)
		want, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		prefix := []byte("keep")
		got := a.AppendJSON(slices.Clone(prefix))
		if !bytes.HasPrefix(got, prefix) || !bytes.Equal(got[len(prefix):], want) {
			t.Fatalf("AppendJSON:\n%s\njson.Marshal:\n%s", got[len(prefix):], want)
		}
	})
}

func TestAppendJSONOfARealAnswer(t *testing.T) {
	answers := []DelegateAnswer{{Alliance: "star", Resp: bigAnswer(300)}, {Alliance: "sky", Err: errTest}}
	a := Merge(tlvJFK, answers)
	want, _ := json.Marshal(a)
	if got := a.AppendJSON(nil); !bytes.Equal(got, want) {
		t.Fatalf("AppendJSON differs from json.Marshal:\n%s\n%s", got, want)
	}
}

// TestTheSearchServersBytesAreMergesAnswer: what the search server writes straight from the
// delegates' trips is, byte for byte, json.Marshal of Merge's answer — whatever the delegates
// sent (prices written otherwise, strings that need escaping, trips the query drops) and
// whatever the query's controls.
func TestTheSearchServersBytesAreMergesAnswer(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		price := rapid.SampledFrom([]string{"100.00", "100", "99.5", "0.05", "007.10", "250.50"})
		str := rapid.SampledFrom([]string{"LY", "UA", `L"Y`, "<b>", "é", "\xff"})
		var answers []DelegateAnswer
		for _, name := range []string{"sky", "star"} {
			resp := &soap.GetTripsResponse{Complete: rapid.Bool().Draw(t, "complete"), Total: rapid.IntRange(0, 30).Draw(t, "total")}
			for range rapid.IntRange(0, 6).Draw(t, "trips") {
				var legs []soap.Leg
				var cents int64
				for range rapid.IntRange(1, 2).Draw(t, "legs") {
					l := leg(rapid.SampledFrom([]string{"LY001", "UA002", "AF003"}).Draw(t, "flight"), "TLV", "JFK",
						rapid.SampledFrom([]string{"06:00", "07:00"}).Draw(t, "dep"), rapid.SampledFrom([]string{"19:00", "20:00"}).Draw(t, "arr"),
						price.Draw(t, "price"))
					l.Seller, l.Src = str.Draw(t, "seller"), rapid.SampledFrom([]string{"TLV", "ATH"}).Draw(t, "src")
					if rapid.Bool().Draw(t, "other-instant-form") { // the same instant as time.Parse also reads it
						l.Departure = strings.TrimSuffix(l.Departure, "Z") + rapid.SampledFrom([]string{".000Z", "+00:00", ".5+00:00"}).Draw(t, "form")
					}
					c, _ := parseCents(l.Price)
					cents += c
					legs = append(legs, l)
				}
				tripPrice := rapid.SampledFrom([]string{"", formatCents(cents), strconv.FormatInt(cents/100, 10) + "." + fmt.Sprint(cents%100/10) + fmt.Sprint(cents%10)}).Draw(t, "trip-price")
				resp.Trips = append(resp.Trips, wireTrip(tripPrice, legs...))
			}
			answers = append(answers, DelegateAnswer{Alliance: name, Resp: resp})
		}
		q := tlvJFK
		q.Sort = contract.Order(rapid.IntRange(0, 3).Draw(t, "sort"))
		q.Nonstop = rapid.Bool().Draw(t, "nonstop")
		q.Limit = rapid.IntRange(0, 4).Draw(t, "limit")
		q.Offset = rapid.IntRange(0, 4).Draw(t, "offset")
		if rapid.Bool().Draw(t, "sellers") {
			q.Sellers = []string{"LY", "UA"}
		}
		want, _ := json.Marshal(Merge(q, answers))
		m := MergeWindow(q, answers)
		if got := m.AppendJSON(nil); !bytes.Equal(got, want) {
			t.Fatalf("the search server writes\n%s\nMerge's answer is\n%s", got, want)
		}
		// The same answers with their legs shared (ShareLegs) are the same bytes, written twice
		// (a shared leg's JSON is made once, then copied).
		shared := slices.Clone(answers)
		for i := range shared {
			if rapid.Bool().Draw(t, "share") {
				shared[i].Resp = shared[i].Resp.ShareLegs()
			}
		}
		if got, _ := json.Marshal(Merge(q, shared)); !bytes.Equal(got, want) {
			t.Fatalf("Merge of shared legs is\n%s\nof inline legs\n%s", got, want)
		}
		ms := MergeWindow(q, shared)
		for range 2 {
			if got := ms.AppendJSON(nil); !bytes.Equal(got, want) {
				t.Fatalf("the search server writes from shared legs\n%s\nMerge's answer is\n%s", got, want)
			}
		}
	})
}

var errTest = jsonTestError("delegate <x> did not answer")

type jsonTestError string

func (e jsonTestError) Error() string { return string(e) }

// TestAppendJSONKnowsEveryField fails when a field is added to one of the answer's types:
// AppendJSON must then write it too (and this list, and the property test, learn it).
func TestAppendJSONKnowsEveryField(t *testing.T) {
	for rt, fields := range map[reflect.Type][]string{
		reflect.TypeFor[Answer]():         {"query", "total", "trips", "complete", "alliances"},
		reflect.TypeFor[QueryEcho]():      {"src", "dst", "date", "servers,omitempty", "limit,omitempty", "offset,omitempty", "nonstop,omitempty", "max_price,omitempty", "sort,omitempty"},
		reflect.TypeFor[Trip]():           {"price", "legs"},
		reflect.TypeFor[Leg]():            {"flight", "seller", "alliance", "src", "dst", "departure", "arrival", "price", "seats"},
		reflect.TypeFor[AllianceStatus](): {"name", "complete", "missing_sellers", "error,omitempty"},
	} {
		var got []string
		for i := range rt.NumField() {
			got = append(got, rt.Field(i).Tag.Get("json"))
		}
		if !slices.Equal(got, fields) {
			t.Errorf("%s has the JSON fields %q; AppendJSON writes %q", rt.Name(), got, fields)
		}
	}
}
