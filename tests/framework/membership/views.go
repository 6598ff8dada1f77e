package membership

import (
	"slices"
)

// Status is the part of a machine's GET /status the watch reads (the cluster suite reads it too).
type Status struct {
	Delegate string `json:"delegate"`
	Acting   bool   `json:"acting_delegate"`
	View     []struct {
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

// Quorum: the machine's etcd member sees a quorum.
func (s Status) Quorum() bool { return s.Member != nil && s.Member.HasQuorum }

// Lists: the machine's etcd member list has the member id.
func (s Status) Lists(id uint64) bool {
	return s.Member != nil && slices.ContainsFunc(s.Member.Members, func(m struct {
		Name string
		ID   uint64
	}) bool {
		return m.ID == id
	})
}

// InView: the machine's view of the alliance has the machine name.
func (s Status) InView(name string) bool {
	return slices.ContainsFunc(s.View, func(e struct {
		Name string `json:"name"`
	}) bool {
		return e.Name == name
	})
}

// polled is one machine's answer in one pass.
type polled struct {
	epoch int
	st    Status
}

// freshestView names the machine, other than name, whose answer lists etcd's members as of the
// latest raft entry (the highest applied index) among those that see a quorum: a machine just
// resumed or healed lists, until it catches up, members removed while it was away.
func freshestView(answers map[string]polled, name string) (string, bool) {
	best, found := "", false
	for other, p := range answers {
		if other == name || !p.st.Quorum() {
			continue
		}
		if !found || p.st.Member.AppliedIndex > answers[best].st.Member.AppliedIndex ||
			p.st.Member.AppliedIndex == answers[best].st.Member.AppliedIndex && other < best {
			best, found = other, true
		}
	}
	return best, found
}
