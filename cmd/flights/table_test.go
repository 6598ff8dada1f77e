package main

import (
	"bytes"
	"strings"
	"testing"

	"flightalliance/search"
)

func sampleAnswer() search.Answer {
	l := func(fl, seller, src, dst, dep, arr, price string) search.Leg {
		return search.Leg{Flight: fl, Seller: seller, Alliance: "star", Src: src, Dst: dst,
			Departure: dep, Arrival: arr, Price: price, Seats: 9}
	}
	return search.Answer{
		Query: search.QueryEcho{Src: "TLV", Dst: "JFK", Date: "2026-12-01"},
		Trips: []search.Trip{
			{Price: "480.50", Legs: []search.Leg{
				l("LY003", "LY", "TLV", "ATH", "2026-12-01T06:00:00Z", "2026-12-01T08:05:00Z", "100.50"),
				l("UA010", "UA", "ATH", "JFK", "2026-12-01T09:00:00Z", "2026-12-01T20:30:00Z", "380.00")}},
			{Price: "512.00", Legs: []search.Leg{
				l("LY001", "LY", "TLV", "JFK", "2026-12-01T08:00:00Z", "2026-12-01T19:10:00Z", "512.00")}},
		},
		Complete:  true,
		Alliances: []search.AllianceStatus{{Name: "star", Complete: true, MissingSellers: []string{}}},
	}
}

func TestWriteTable(t *testing.T) {
	var b bytes.Buffer
	writeTable(&b, sampleAnswer())
	want := `PRICE   FLIGHTS      ROUTE        DEPARTS            ARRIVES            SELLERS
480.50  LY003+UA010  TLV-ATH-JFK  2026-12-01 06:00Z  2026-12-01 20:30Z  LY,UA
512.00  LY001        TLV-JFK      2026-12-01 08:00Z  2026-12-01 19:10Z  LY
2 trips from TLV to JFK on 2026-12-01
`
	if b.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestWriteTableSaysWhatIsMissing(t *testing.T) {
	a := sampleAnswer()
	a.Complete = false
	a.Alliances = append(a.Alliances,
		search.AllianceStatus{Name: "oneworld", MissingSellers: []string{"AA", "BA"}},
		search.AllianceStatus{Name: "skyteam", MissingSellers: []string{}, Error: "did not answer within 3s"})
	var b bytes.Buffer
	writeTable(&b, a)
	last := strings.TrimSpace(b.String()[strings.LastIndex(strings.TrimSpace(b.String()), "\n")+1:])
	for _, want := range []string{"INCOMPLETE", "oneworld is missing sellers AA, BA", "skyteam did not answer (did not answer within 3s)"} {
		if !strings.Contains(last, want) {
			t.Errorf("last line %q lacks %q", last, want)
		}
	}
	if strings.Contains(last, "star") {
		t.Errorf("last line %q names the complete alliance", last)
	}
}

func TestWriteTableNoTrips(t *testing.T) {
	a := sampleAnswer()
	a.Trips = nil
	var b bytes.Buffer
	writeTable(&b, a)
	if b.String() != "no trips from TLV to JFK on 2026-12-01\n" {
		t.Errorf("got %q", b.String())
	}
}

func TestWriteTableShowsTheWindowAndTotal(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*search.Answer)
		last string
	}{
		{"whole list", func(a *search.Answer) { a.Total = 2 }, "2 trips from TLV to JFK on 2026-12-01"},
		{"first page", func(a *search.Answer) { a.Total, a.Query.Limit = 2513, 2 }, "trips 1-2 of 2513 from TLV to JFK on 2026-12-01"},
		{"later page", func(a *search.Answer) { a.Total, a.Query.Limit, a.Query.Offset = 2513, 20, 40 }, "trips 41-42 of 2513 from TLV to JFK on 2026-12-01"},
		{"one trip", func(a *search.Answer) { a.Trips, a.Total, a.Query.Limit, a.Query.Offset = a.Trips[:1], 7, 1, 6 }, "trip 7 of 7 from TLV to JFK on 2026-12-01"},
		{"page holds all", func(a *search.Answer) { a.Total, a.Query.Limit = 2, 20 }, "2 trips from TLV to JFK on 2026-12-01"},
		{"controls", func(a *search.Answer) {
			a.Total, a.Query.Limit, a.Query.Nonstop, a.Query.MaxPrice, a.Query.Sort = 9, 2, true, "600.00", "duration"
		}, "trips 1-2 of 9 from TLV to JFK on 2026-12-01 (non-stop, at most 600.00, sorted by duration)"},
	} {
		a := sampleAnswer()
		tc.edit(&a)
		var b bytes.Buffer
		writeTable(&b, a)
		lines := strings.Split(strings.TrimSpace(b.String()), "\n")
		if len(lines) != len(a.Trips)+2 || !strings.HasPrefix(lines[0], "PRICE") || lines[len(lines)-1] != tc.last {
			t.Errorf("%s: table\n%s\nwant the last line %q", tc.name, b.String(), tc.last)
		}
	}
}

func TestWriteTableEmptyPages(t *testing.T) {
	a := sampleAnswer()
	a.Trips, a.Total, a.Query.Limit, a.Query.Offset = []search.Trip{}, 12, 20, 40
	var b bytes.Buffer
	writeTable(&b, a)
	if want := "no trips past the first 40: the whole list has 12 trips from TLV to JFK on 2026-12-01\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	a.Total, a.Query.Nonstop = 0, true
	b.Reset()
	writeTable(&b, a)
	if want := "no trips from TLV to JFK on 2026-12-01 (non-stop)\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
