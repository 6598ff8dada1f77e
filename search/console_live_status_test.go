package search

import (
	"testing"
	"time"
)

// Documents shaped as the airline server's GET /status (alliance/status.go): snake_case fields,
// and the etcd member under coord.Status's Go field names.
type fakeEntry struct {
	Name      string   `json:"name"`
	URL       string   `json:"url"`
	Primaries []string `json:"primaries"`
	Backups   []string `json:"backups"`
	Leaving   bool     `json:"leaving,omitempty"`
	Brings    []string `json:"brings,omitempty"`
}

type fakeMember struct {
	Name       string
	ID         uint64
	PeerURLs   []string
	ClientURLs []string
	IsLearner  bool
}

type fakeStatus struct {
	Name     string      `json:"name"`
	Alliance string      `json:"alliance"`
	URL      string      `json:"url"`
	Delegate string      `json:"delegate"`
	Acting   bool        `json:"acting_delegate"`
	Self     fakeEntry   `json:"self"`
	Serving  []string    `json:"serving"`
	Joining  bool        `json:"joining"`
	Leaving  bool        `json:"leaving"`
	View     []fakeEntry `json:"view"`
	Round    struct {
		ID         int64     `json:"id"`
		Phase      string    `json:"phase"`
		Since      time.Time `json:"since"`
		LastResult string    `json:"last_result,omitempty"`
	} `json:"round"`
	Member *struct {
		Name      string
		ID        uint64
		IsLeader  bool
		IsLearner bool
		Leader    string
		LeaderID  uint64
		HasQuorum bool
		Members   []fakeMember
	} `json:"member,omitempty"`
}

// statusOf is machine self's /status in alliance star, whose view is entries and whose etcd
// members are members (the first of them leads).
func statusOf(self string, entries []fakeEntry, members ...fakeMember) fakeStatus {
	var st fakeStatus
	st.Name, st.Alliance = self, "star"
	st.View = entries
	if len(entries) > 0 {
		st.Delegate = entries[0].Name
	}
	st.Round.ID, st.Round.Phase, st.Round.LastResult = 7, "idle", "committed"
	if len(members) > 0 {
		st.Member = &struct {
			Name      string
			ID        uint64
			IsLeader  bool
			IsLearner bool
			Leader    string
			LeaderID  uint64
			HasQuorum bool
			Members   []fakeMember
		}{Name: self, Leader: members[0].Name, HasQuorum: true, Members: members}
	}
	return st
}

func entry(m *fakeMachine, primaries, backups []string) fakeEntry {
	return fakeEntry{Name: m.name, URL: m.URL(), Primaries: primaries, Backups: backups}
}

func voters(names ...string) []fakeMember {
	var out []fakeMember
	for _, n := range names {
		out = append(out, fakeMember{Name: n})
	}
	return out
}

// starOf3 starts m1, m2 and m3 of alliance star, each answering the same picture: LY, UA and
// BA placed round the three, a backup each on the next machine.
func starOf3(t *testing.T) (m1, m2, m3 *fakeMachine, doc func(self string) fakeStatus) {
	m1, m2, m3 = startFakeMachine(t, "m1"), startFakeMachine(t, "m2"), startFakeMachine(t, "m3")
	view := []fakeEntry{
		entry(m1, []string{"LY"}, []string{"BA"}),
		entry(m2, []string{"UA"}, []string{"LY"}),
		entry(m3, []string{"BA"}, []string{"UA"}),
	}
	doc = func(self string) fakeStatus { return statusOf(self, view, voters("m1", "m2", "m3")...) }
	for _, m := range []*fakeMachine{m1, m2, m3} {
		m.set(doc(m.name))
	}
	return m1, m2, m3, doc
}
