package gather

import (
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
	if bytes, n := c.size(); bytes != 3*listCost(list(1000)) || n != 3 {
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
// legs as the join made them, the shared and the inline SOAP forms), and not twice that: a busy
// pair's lists of 2,700 to 42,000 trips, measured on the heap.
func TestListCostCoversAList(t *testing.T) {
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	for _, perDay := range []int{30, 120} {
		var all []flight.Flight
		for _, fs := range hubSchedule(perDay).flights {
			all = append(all, fs...)
		}
		q := trip.Query{Src: "TLV", Dst: "JFK", Date: flight.DateOf(hubDay), MinConnection: 30 * time.Minute}
		const lists = 8
		before := heap()
		kept := make([]*tripList, lists)
		var cost int64
		for i := range kept {
			kept[i] = newTripList(trip.Build(q, all, all))
			kept[i].sharedForm("star")
			kept[i].wireForm("star")
			cost += listCost(kept[i])
		}
		took := int64(heap() - before)
		runtime.KeepAlive(kept)
		t.Logf("%d lists of %d trips: %d bytes on the heap, listCost %d", lists, len(kept[0].trips), took, cost)
		if took > cost || 2*took < cost {
			t.Errorf("%d lists of %d trips took %d bytes; listCost counts %d", lists, len(kept[0].trips), took, cost)
		}
	}
}
