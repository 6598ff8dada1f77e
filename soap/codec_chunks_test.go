package soap

import (
	"reflect"
	"runtime"
	"strconv"
	"testing"
)

// TestDecodeTripsAcrossChunks: the trips of a long answer take their legs and leg indexes from
// chunks shared by the answer's trips; trips that straddle the chunks' ends decode as encoding/xml
// decodes them.
func TestDecodeTripsAcrossChunks(t *testing.T) {
	r := &GetTripsResponse{Alliance: "star", Complete: true, Total: 3000, SharedLegs: connections(1, 1).Trips[0].Legs}
	for i := range 3000 {
		tr := Trip{Price: strconv.Itoa(i) + ".00"}
		for j := range 1 + i%3 {
			tr.LegIndexes = append(tr.LegIndexes, (i+j)%2)
		}
		if i%5 == 0 {
			tr.Legs = connections(1, 1).Trips[0].Legs[:1+i%2]
		}
		r.Trips = append(r.Trips, tr)
	}
	body, _ := appendResponseEnvelope(nil, "getTripsResponse", r)
	var fast, ref GetTripsResponse
	if !fastDecode(body, "getTripsResponse", &fast) {
		t.Fatal("the fast decoder defers")
	}
	if err := referenceDecode(body, "getTripsResponse", &ref); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fast, ref) {
		t.Fatal("the fast decoder and encoding/xml decode the long answer differently")
	}
}

// TestDecodeOneHugeTripCostsItsSize: a peer may send one trip with any number of legs or
// indexes (an answer the search server then refuses); decoding it allocates about its size, not
// its size squared.
func TestDecodeOneHugeTripCostsItsSize(t *testing.T) {
	huge := Trip{Price: "1.00"}
	for i := range 1_000_000 {
		huge.LegIndexes = append(huge.LegIndexes, i)
	}
	for range 50_000 {
		huge.Legs = append(huge.Legs, Leg{Flight: "LY1"})
	}
	body, _ := appendResponseEnvelope(nil, "getTripsResponse", &GetTripsResponse{Trips: []Trip{huge}})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var got GetTripsResponse
	if !fastDecode(body, "getTripsResponse", &got) {
		t.Fatal("the fast decoder defers")
	}
	runtime.ReadMemStats(&after)
	if len(got.Trips) != 1 || len(got.Trips[0].LegIndexes) != 1_000_000 || len(got.Trips[0].Legs) != 50_000 {
		t.Fatalf("decoded %d trips", len(got.Trips))
	}
	// The decoded values take ~16 MB (a million ints, 50,000 legs of 152 bytes), with doubling
	// ~32; grown by a fixed step, as they once were, ~430 MB.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("decoding a %d-byte trip allocated %d bytes", len(body), alloc)
	}
}
