package membership

import (
	"encoding/json"
	"testing"
)

// TestFreshestViewJudges: the view that judges a machine's membership is another machine's,
// with quorum, that applied the latest raft entry — not one just resumed that still lists what
// it knew before.
func TestFreshestViewJudges(t *testing.T) {
	answer := func(doc string) polled {
		var st Status
		if err := json.Unmarshal([]byte(doc), &st); err != nil {
			t.Fatal(err)
		}
		return polled{st: st}
	}
	answers := map[string]polled{
		"m1": answer(`{"member":{"ID":1,"HasQuorum":true,"AppliedIndex":90,"Members":[{"Name":"m1","ID":1},{"Name":"m5","ID":5}]}}`),
		"m2": answer(`{"member":{"ID":2,"HasQuorum":true,"AppliedIndex":120,"Members":[{"Name":"m1","ID":1}]}}`),
		"m3": answer(`{"member":{"ID":3,"HasQuorum":false,"AppliedIndex":130}}`),
		"m4": answer(`{"member":{"ID":4,"HasQuorum":true,"AppliedIndex":120}}`),
		"m5": answer(`{"member":{"ID":5,"HasQuorum":true,"AppliedIndex":140,"Members":[{"Name":"m5","ID":5}]}}`),
		"m6": answer(`{}`),
	}
	for name, want := range map[string]string{"m5": "m2", "m2": "m5", "m1": "m5"} {
		if got, ok := freshestView(answers, name); !ok || got != want {
			t.Errorf("freshestView(%s) = %q, %v; want %s", name, got, ok, want)
		}
	}
	if got, ok := freshestView(map[string]polled{"m1": answers["m1"], "m3": answers["m3"]}, "m1"); ok {
		t.Errorf("freshestView(m1) among machines without quorum = %q; want none", got)
	}
	if !answers["m1"].st.Lists(5) || answers["m2"].st.Lists(5) {
		t.Error("lists: m1 lists member 5, m2 does not")
	}
}
