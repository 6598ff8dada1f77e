package integration

import (
	"encoding/json"
	"slices"
	"testing"
)

// watchedStatus is the part of GET /status the watch reads.
type watchedStatus struct {
	status
	View []struct {
		Name string `json:"name"`
	} `json:"view"`
	Member *struct {
		ID           uint64
		HasQuorum    bool
		AppliedIndex uint64
		Members      []struct {
			Name string
			ID   uint64
		}
	} `json:"member"`
}

func (s watchedStatus) quorum() bool { return s.Member != nil && s.Member.HasQuorum }

func (s watchedStatus) lists(id uint64) bool {
	return s.Member != nil && slices.ContainsFunc(s.Member.Members, func(m struct {
		Name string
		ID   uint64
	}) bool {
		return m.ID == id
	})
}

func (s watchedStatus) inView(name string) bool {
	return slices.ContainsFunc(s.View, func(e struct {
		Name string `json:"name"`
	}) bool {
		return e.Name == name
	})
}

// polled is one machine's answer in one pass.
type polled struct {
	epoch int
	st    watchedStatus
}

// freshestView names the machine, other than name, whose answer lists etcd's members as of the
// latest raft entry (the highest applied index) among those that see a quorum: a machine just
// resumed or healed lists, until it catches up, members removed while it was away.
func freshestView(answers map[string]polled, name string) (string, bool) {
	best, found := "", false
	for other, p := range answers {
		if other == name || !p.st.quorum() {
			continue
		}
		if !found || p.st.Member.AppliedIndex > answers[best].st.Member.AppliedIndex ||
			p.st.Member.AppliedIndex == answers[best].st.Member.AppliedIndex && other < best {
			best, found = other, true
		}
	}
	return best, found
}

// TestFreshestViewJudges: the view that judges a machine's membership is another machine's,
// with quorum, that applied the latest raft entry — not one just resumed that still lists what
// it knew before.
func TestFreshestViewJudges(t *testing.T) {
	answer := func(doc string) polled {
		var st watchedStatus
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
	if !answers["m1"].st.lists(5) || answers["m2"].st.lists(5) {
		t.Error("lists: m1 lists member 5, m2 does not")
	}
}
