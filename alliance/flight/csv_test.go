package flight

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

const header = "flight,seller,src,dst,departure,arrival,price,seats\n"

func TestParseCSVExample(t *testing.T) {
	in := header + "LY001,LY,TLV,JFK,2026-12-01T08:00:00Z,2026-12-01T19:10:00Z,512.00,180\n" +
		"LY002,LY,JFK,TLV,2026-12-01T21:00:00Z,2026-12-02T07:30:00Z,498.5,0\n"
	got, err := ParseCSV(strings.NewReader(in), "LY.csv")
	if err != nil {
		t.Fatal(err)
	}
	want := []Flight{
		{"LY001", "LY", "TLV", "JFK", time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC), time.Date(2026, 12, 1, 19, 10, 0, 0, time.UTC), 51200, 180},
		{"LY002", "LY", "JFK", "TLV", time.Date(2026, 12, 1, 21, 0, 0, 0, time.UTC), time.Date(2026, 12, 2, 7, 30, 0, 0, time.UTC), 49850, 0},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("ParseCSV =\n%v\nwant\n%v", got, want)
	}
}

func TestParseCSVColumnsInAnyOrder(t *testing.T) {
	in := "\ufeffseats,price,arrival,departure,dst,src,seller,flight\n" +
		"180,512.00,2026-12-01T19:10:00Z,2026-12-01T08:00:00Z,JFK,TLV,LY,LY001\n"
	got, err := ParseCSV(strings.NewReader(in), "LY.csv")
	if err != nil || len(got) != 1 || got[0].Number != "LY001" || got[0].Seats != 180 || got[0].Src != "TLV" {
		t.Fatalf("ParseCSV = %v, %v", got, err)
	}
}

// Every rule of docs/api.md has a row that breaks it; the message must name file, line and field.
func TestParseCSVRefusesBadFiles(t *testing.T) {
	ok := "LY001,LY,TLV,JFK,2026-12-01T08:00:00Z,2026-12-01T19:10:00Z,512.00,180\n"
	cases := []struct{ name, in, want string }{
		{"empty file", "", "f.csv:1: header: missing"},
		{"no header", ok, `f.csv:1: header: unknown column "LY001"`},
		{"missing column", "flight,seller,src,dst,departure,arrival,price\n", `f.csv:1: header: missing column "seats"`},
		{"repeated column", "flight,seller,src,dst,departure,arrival,price,seats,price\n", `f.csv:1: header: column "price" appears twice`},
		{"short row", header + ok + "LY002,LY,TLV\n", "f.csv:3: record: wrong number of fields"},
		{"bad quote", header + ok + "LY002,\"LY,TLV\n", "f.csv:3: record:"},
		{"empty number", header + ",LY,TLV,JFK,2026-12-01T08:00:00Z,2026-12-01T19:10:00Z,1.00,1\n", `f.csv:2: flight: "" is not a flight number`},
		{"bad seller", header + "LY1,ly,TLV,JFK,2026-12-01T08:00:00Z,2026-12-01T19:10:00Z,1.00,1\n", `f.csv:2: seller: "ly" is not a seller code`},
		{"lower-case src", header + "LY1,LY,tlv,JFK,2026-12-01T08:00:00Z,2026-12-01T19:10:00Z,1.00,1\n", `f.csv:2: src: "tlv" is not an IATA`},
		{"long dst", header + "LY1,LY,TLV,JFKX,2026-12-01T08:00:00Z,2026-12-01T19:10:00Z,1.00,1\n", `f.csv:2: dst: "JFKX" is not an IATA`},
		{"src equals dst", header + "LY1,LY,TLV,TLV,2026-12-01T08:00:00Z,2026-12-01T19:10:00Z,1.00,1\n", "f.csv:2: dst: TLV equals src"},
		{"not UTC", header + "LY1,LY,TLV,JFK,2026-12-01T08:00:00+02:00,2026-12-01T19:10:00Z,1.00,1\n", `f.csv:2: departure: "2026-12-01T08:00:00+02:00" is not an RFC 3339 UTC instant`},
		{"not a time", header + "LY1,LY,TLV,JFK,2026-12-01T08:00:00Z,tomorrow,1.00,1\n", `f.csv:2: arrival: "tomorrow" is not an RFC 3339`},
		{"date only", header + "LY1,LY,TLV,JFK,2026-12-01,2026-12-01T19:10:00Z,1.00,1\n", `f.csv:2: departure: "2026-12-01" is not`},
		{"arrival equals departure", header + "LY1,LY,TLV,JFK,2026-12-01T08:00:00Z,2026-12-01T08:00:00Z,1.00,1\n", "f.csv:2: arrival: 2026-12-01T08:00:00Z is not after departure"},
		{"arrival before departure", header + "LY1,LY,TLV,JFK,2026-12-01T08:00:00Z,2026-12-01T07:00:00Z,1.00,1\n", "f.csv:2: arrival:"},
		{"three fraction digits", header + "LY1,LY,TLV,JFK,2026-12-01T08:00:00Z,2026-12-01T19:10:00Z,1.234,1\n", `f.csv:2: price: "1.234" has more than two fraction digits`},
		{"negative price", header + "LY1,LY,TLV,JFK,2026-12-01T08:00:00Z,2026-12-01T19:10:00Z,-1.00,1\n", `f.csv:2: price: "-1.00"`},
		{"negative seats", header + "LY1,LY,TLV,JFK,2026-12-01T08:00:00Z,2026-12-01T19:10:00Z,1.00,-1\n", `f.csv:2: seats: "-1" is not a non-negative integer`},
		{"fractional seats", header + "LY1,LY,TLV,JFK,2026-12-01T08:00:00Z,2026-12-01T19:10:00Z,1.00,1.5\n", `f.csv:2: seats: "1.5"`},
		{"duplicate number", header + ok + "LY002,LY,TLV,JFK,2026-12-02T08:00:00Z,2026-12-02T19:10:00Z,1.00,1\n" + ok,
			"f.csv:4: flight: LY001 repeats the flight number of line 2"},
		{"two sellers", header + ok + "UA1,UA,TLV,JFK,2026-12-02T08:00:00Z,2026-12-02T19:10:00Z,1.00,1\n",
			"f.csv:3: seller: UA differs from seller LY of line 2"},
		{"fraction of a second", header + "LY1,LY,TLV,JFK,2026-12-01T08:00:00.5Z,2026-12-01T19:10:00Z,1.00,1\n", "f.csv:2: departure: 2026-12-01T08:00:00.5Z has a fraction of a second"},
		{"price a trip cannot show", header + "LY1,LY,TLV,JFK,2026-12-01T08:00:00Z,2026-12-01T19:10:00Z,6000000000000.00,1\n", "f.csv:2: price: 6000000000000.00 is more than a flight may cost"},
		{"price no side reads", header + "LY1,LY,TLV,JFK,2026-12-01T08:00:00Z,2026-12-01T19:10:00Z,20000000000000.00,1\n", `f.csv:2: price: "20000000000000.00" is too large`},
		{"seats past xsd:int", header + "LY1,LY,TLV,JFK,2026-12-01T08:00:00Z,2026-12-01T19:10:00Z,1.00,3000000000\n", "f.csv:2: seats: 3000000000 is more than a flight may have"},
		{"blank lines counted", header + "\n\n" + ok + "LY2,LY,TLV,JFK,x,2026-12-01T19:10:00Z,1.00,1\n", "f.csv:5: departure:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseCSV(strings.NewReader(c.in), "f.csv")
			if err == nil {
				t.Fatalf("ParseCSV accepted the file: %v", got)
			}
			if got != nil {
				t.Errorf("a bad file loaded %d flights; want none", len(got))
			}
			if !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("error %q\nwant prefix %q", err, c.want)
			}
			if strings.Contains(c.want, ": header") || strings.Contains(c.want, "record") {
				return
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %v does not wrap ErrInvalid", err)
			}
		})
	}
}

func TestCSVRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		flights := genFlights(t, "LY", 30)
		var buf bytes.Buffer
		if err := WriteCSV(&buf, flights); err != nil {
			t.Fatal(err)
		}
		back, err := ParseCSV(&buf, "round-trip")
		if err != nil {
			t.Fatal(err)
		}
		if len(flights) == 0 && len(back) == 0 {
			return
		}
		if !slices.Equal(back, flights) {
			t.Fatalf("round trip changed the flights:\n%v\n%v", flights, back)
		}
	})
}

func TestReadSeller(t *testing.T) {
	in := header + "LY001,LY,TLV,JFK,2026-12-01T08:00:00Z,2026-12-01T19:10:00Z,512.00,180\n"
	s, err := ReadSeller(strings.NewReader(in), "LY.csv", "LY")
	if err != nil || s.Code() != "LY" || s.Len() != 1 {
		t.Fatalf("ReadSeller = %v, %v", s, err)
	}
	if _, err := ReadSeller(strings.NewReader(in), "LY.csv", "UA"); err == nil || !strings.HasPrefix(err.Error(), "LY.csv:2: seller: LY is not the expected seller UA") {
		t.Errorf("ReadSeller with the wrong code: %v", err)
	}
	if _, err := ReadSeller(strings.NewReader(in), "LY.csv", "u"); err == nil || !errors.Is(err, ErrInvalid) {
		t.Errorf("ReadSeller with a bad code: %v", err)
	}
}
