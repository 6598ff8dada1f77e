package integration

import (
	"testing"
	"time"
)

// TestPartitionAndHeal cuts a machine off behind its proxies: the delegate keeps answering
// completely (asking the other holders once calls to the cut machine time out), the others
// repair around it once its lease expires, and after the heal it rejoins.
func TestPartitionAndHeal(t *testing.T) {
	a := newProxiedAlliance(t, "star", map[string][]string{"m1": {"LY"}, "m2": {"UA", "LH"}, "m3": {"AF"}}, nil)
	a.waitSettled(90 * time.Second)
	queries := busyQueries(a.activeData(), 3)
	if err := a.checkAnswers("m1", queries); err != nil {
		t.Fatal(err)
	}

	a.partition("m2")
	if err := a.checkAnswers("m1", queries); err != nil {
		t.Fatalf("right after cutting m2 off: %v", err)
	}
	took := a.waitSettled(60 * time.Second)
	t.Logf("placement settled without m2 %v after the partition", took)
	if err := a.checkAnswers("m1", queries); err != nil {
		t.Fatal(err)
	}

	a.heal("m2")
	took = a.waitSettled(90 * time.Second)
	t.Logf("m2 back and placement settled %v after the heal", took)
	if err := a.checkAnswers("m1", queries); err != nil {
		t.Fatal(err)
	}
}
