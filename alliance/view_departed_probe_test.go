package alliance

import (
	"log/slog"
	"slices"
	"testing"
	"time"

	"flightalliance/coord"
)

// TestViewLeavesADepartedHolderThatDidNotAnswerAlone: a departed machine whose call failed is
// no candidate, and may not be called, for departedRetryAfter (a search with no live holder says
// at once what it misses, rather than every search waiting for the call timeout); then one call
// at a time tries it (the others leave it out meanwhile), and once one answers every search asks
// it again. An abandoned call changes nothing; the end of a call that was not the probe does not
// let a second probe go; a live machine is never left out; a call of an earlier departure tells
// nothing of the next one.
func TestViewLeavesADepartedHolderThatDidNotAnswerAlone(t *testing.T) {
	v := newView(slog.New(slog.DiscardHandler), nil)
	now := listedOnClock(v)
	a := machineEntry{Name: "a", URL: "https://a", Primaries: []string{"LY"}, Versions: map[string]string{"LY": "v1"}}
	b := machineEntry{Name: "b", URL: "https://b", Backups: []string{"LY"}, Versions: map[string]string{"LY": "v1"}}
	v.apply(entryEvent(t, coord.EventCreated, 11, 11, a))
	v.apply(entryEvent(t, coord.EventCreated, 12, 12, b))
	both, onlyA := []string{"a", "b"}, []string{"a"}
	// call checks b's candidacy, then asks to call it: the call, if one may go.
	call := func(when string, candidates []string, mayCall bool) departedCall {
		t.Helper()
		if got := list(v.candidates("LY")); !slices.Equal(got, candidates) {
			t.Errorf("%s: candidates %v, want %v", when, got, candidates)
		}
		c, ok := v.departedProbe("b")
		if ok != mayCall {
			t.Errorf("%s: departedProbe(b) = %v, want %v", when, ok, mayCall)
		}
		return c
	}

	v.departedAnswered(call("live b", both, true), callFailed) // live: asked as any holder
	call("live b failed a call", both, true)
	*now = now.Add(time.Second)
	v.apply(coord.Event{Type: coord.EventDeleted, Name: "b", Revision: 13})
	early := call("b departed", both, true)
	late := call("b departed, called again", both, true) // no failure yet: any number at once
	v.departedAnswered(early, callFailed)
	call("departed b failed a call", onlyA, false)
	*now = now.Add(departedRetryAfter - time.Millisecond)
	call("just before departedRetryAfter", onlyA, false)
	*now = now.Add(time.Millisecond)
	probe := call("departedRetryAfter later: a probe", both, true)
	call("while the probe is on its way", onlyA, false)
	v.departedAnswered(late, callFailed) // the call made before the failure ends: not the probe
	*now = now.Add(departedRetryAfter)
	call("a call before the failure ended, the probe still on its way", onlyA, false)
	v.departedAnswered(probe, callAbandoned)
	probe = call("the probe abandoned: the next call probes", both, true)
	v.departedAnswered(probe, callFailed)
	call("the probe failed", onlyA, false)
	*now = now.Add(departedRetryAfter)
	probe = call("another probe", both, true)
	v.departedAnswered(probe, callAnswered)
	call("the probe answered", both, true)
	call("called again", both, true)
	if _, _, ok := v.departedAt("b", []string{"LY"}); !ok {
		t.Error("departedAt(b): want ok")
	}

	// A call of this departure is under way when b rejoins and departs again: it fails, and
	// tells nothing of the new departure.
	old := call("before b rejoins", both, true)
	v.apply(entryEvent(t, coord.EventCreated, 14, 14, b))
	*now = now.Add(time.Second)
	v.apply(coord.Event{Type: coord.EventDeleted, Name: "b", Revision: 15})
	v.departedAnswered(old, callFailed)
	call("b departed anew, an old call failed", both, true)
}
