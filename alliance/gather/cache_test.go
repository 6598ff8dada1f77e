package gather

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/trip"
)

func TestAnswerCacheDropsAnswersComputedBeforeAPurge(t *testing.T) {
	c := newAnswerCache(8, 0)
	_, gen, ok := c.get("q")
	if ok {
		t.Fatal("empty cache hit")
	}
	c.purge() // the data changed while the answer was being computed
	c.add("q", newTripList(nil), gen)
	if _, _, ok := c.get("q"); ok {
		t.Fatal("an answer computed before the purge was cached after it")
	}
	_, gen, _ = c.get("q")
	c.add("q", newTripList(nil), gen)
	if _, _, ok := c.get("q"); !ok {
		t.Fatal("an answer computed after the purge was not cached")
	}
}

func TestAnswerCacheDisabled(t *testing.T) {
	c := newAnswerCache(-1, 1<<30)
	_, gen, _ := c.get("q")
	c.add("q", newTripList(nil), gen)
	if _, _, ok := c.get("q"); ok || c.enabled() {
		t.Fatal("a disabled cache answered")
	}
}

// The cache keeps within its budget of bytes, the least recently used going first, as well as
// within its count.
func TestAnswerCacheKeepsWithinItsBudget(t *testing.T) {
	list := func(n int) *tripList { return newTripList(make([]trip.Trip, n)) }
	c := newAnswerCache(100, 3*listCost(list(1000)))
	for _, q := range []string{"a", "b", "c", "d"} {
		_, gen, _ := c.get(q)
		c.add(q, list(1000), gen)
	}
	if _, _, ok := c.get("a"); ok {
		t.Error("a fourth list of 1,000 trips in a budget of three kept the first")
	}
	for _, q := range []string{"b", "c", "d"} {
		if _, _, ok := c.get(q); !ok {
			t.Errorf("list %s, within the budget, was not kept", q)
		}
	}
	if bytes, n := c.usage(); bytes != 3*listCost(list(1000)) || n != 3 {
		t.Errorf("size %d bytes, %d answers; want %d, 3", bytes, n, 3*listCost(list(1000)))
	}
	_, gen, _ := c.get("huge")
	c.add("huge", list(4000), gen)
	if _, _, ok := c.get("huge"); ok {
		t.Error("a list costing more than the whole budget was kept")
	}
	c = newAnswerCache(2, 0) // no bound by bytes: by count alone
	for _, q := range []string{"a", "b", "c"} {
		_, gen, _ := c.get(q)
		c.add(q, list(1_000_000), gen)
	}
	if _, _, ok := c.get("a"); ok || c.lru.Len() != 2 {
		t.Errorf("a cache of 2 answers kept %d", c.lru.Len())
	}
}

// listCost counts at least what a cached list takes once every form of it is made (its trips and
// legs as the join made them, the shared and the inline SOAP forms), and not twice that, on the
// heap, for lists of every shape: thousands of trips over a few hundred flights (a hub), direct
// flights alone, connections that share no flight, and the first 100 trips of a list.
func TestListCostCoversAList(t *testing.T) {
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	q := trip.Query{Src: "TLV", Dst: "JFK", Date: flight.DateOf(hubDay), MinConnection: 30 * time.Minute}
	hub := func(perDay int) []flight.Flight {
		var all []flight.Flight
		for _, fs := range hubSchedule(perDay).flights {
			all = append(all, fs...)
		}
		return all
	}
	leg := func(i int, src, dst string, at time.Time) flight.Flight {
		return flight.Flight{Number: fmt.Sprintf("LY%04d", i), Seller: "LY", Src: src, Dst: dst, Departure: at,
			Arrival: at.Add(3 * time.Hour), Price: flight.Cents(10000 + i), Seats: 100}
	}
	var direct, oneToOne []flight.Flight
	for i := range 3000 {
		direct = append(direct, leg(i, "TLV", "JFK", hubDay.Add(time.Duration(i)*time.Second)))
	}
	for i := range 1500 { // TLV → Xi → JFK, each stop its own
		stop := fmt.Sprintf("%c%c%c", 'A'+i/676, 'A'+i/26%26, 'A'+i%26)
		oneToOne = append(oneToOne, leg(2*i, "TLV", stop, hubDay), leg(2*i+1, stop, "JFK", hubDay.Add(4*time.Hour)))
	}
	for _, c := range []struct {
		name string
		list func() *tripList
	}{
		{"hub of 30 a day", func() *tripList { all := hub(30); return newTripList(trip.Build(q, all, all)) }},
		{"hub of 120 a day", func() *tripList { all := hub(120); return newTripList(trip.Build(q, all, all)) }},
		{"direct flights", func() *tripList { return newTripList(trip.Build(q, direct, direct)) }},
		{"connections sharing no flight", func() *tripList { return newTripList(trip.Build(q, oneToOne, oneToOne)) }},
		{"the first 100 of a hub", func() *tripList {
			all := hub(30)
			return newFirstTrips(trip.Cheapest(q, all, all, 100))
		}},
	} {
		lists := 8
		if c.name == "hub of 120 a day" {
			lists = 2 // 32 MB each, far above the heap's noise
		}
		before := heap()
		kept := make([]*tripList, lists)
		var cost int64
		for i := range kept {
			kept[i] = c.list()
			kept[i].sharedForm("star")
			kept[i].wireForm("star")
			cost += listCost(kept[i])
		}
		took := int64(heap()) - int64(before)
		runtime.KeepAlive(kept)
		t.Logf("%s: %d lists of %d trips: %d bytes on the heap (%d a trip), listCost %d", c.name, lists, len(kept[0].trips),
			took, took/int64(lists*max(1, len(kept[0].trips))), cost)
		if took > cost || 2*took < cost {
			t.Errorf("%s: %d lists of %d trips took %d bytes; listCost counts %d", c.name, lists, len(kept[0].trips), took, cost)
		}
	}
}
