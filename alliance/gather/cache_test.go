package gather

import (
	"testing"
)

func TestAnswerCacheDropsAnswersComputedBeforeAPurge(t *testing.T) {
	c, err := newAnswerCache(8)
	if err != nil {
		t.Fatal(err)
	}
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
	c, err := newAnswerCache(-1)
	if err != nil {
		t.Fatal(err)
	}
	_, gen, _ := c.get("q")
	c.add("q", newTripList(nil), gen)
	if _, _, ok := c.get("q"); ok || c.enabled() {
		t.Fatal("a disabled cache answered")
	}
}
