package trip

import (
	"testing"

	"flightalliance/alliance/flight"
)

// The generator's hubs make one-stop trips common, including trips across two sellers.
func TestGeneratedScheduleHasConnections(t *testing.T) {
	data, err := flight.Generate(flight.GenerateConfig{Sellers: []string{"LY", "UA", "LH"}, From: day, Days: 1, PerDay: 200, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	var sellers []*flight.Seller
	for _, code := range []string{"LY", "UA", "LH"} {
		s, err := flight.NewSeller(code, data[code])
		if err != nil {
			t.Fatal(err)
		}
		sellers = append(sellers, s)
	}
	pairs, connected, mixed := 0, 0, 0
	for _, src := range flight.Airports() {
		for _, dst := range flight.Airports() {
			if src.Code == dst.Code {
				continue
			}
			pairs++
			q := Query{Src: src.Code, Dst: dst.Code, Date: day}
			var fromSrc, toDst []flight.Flight
			for _, s := range sellers {
				fromSrc = append(fromSrc, s.BySrc(q.Src, day)...)
				toDst = append(toDst, s.ByDst(q.Dst, day)...)
			}
			hasConn, hasMixed := false, false
			for _, tr := range Build(q, fromSrc, toDst) {
				if len(tr.Legs) == 2 {
					hasConn = true
					hasMixed = hasMixed || tr.Legs[0].Seller != tr.Legs[1].Seller
				}
			}
			if hasConn {
				connected++
			}
			if hasMixed {
				mixed++
			}
		}
	}
	if connected < pairs/10 || mixed == 0 {
		t.Errorf("%d of %d airport pairs have a connection, %d across sellers; want at least a tenth, and some mixed",
			connected, pairs, mixed)
	}
	t.Logf("%d of %d pairs have a one-stop trip, %d with two sellers", connected, pairs, mixed)
}
