package ledger

import "testing"

// TestAfterTrustsOnlyCommittedWrites: a serializable read is trusted only by a write that
// committed; whatever else it decided is decided again at once from linearizable reads, and an
// operation that read linearizably once keeps doing so.
func TestAfterTrustsOnlyCommittedWrites(t *testing.T) {
	for _, c := range []struct {
		name         string
		r            result
		linearizable bool
		want         next
	}{
		{"a write that committed after a serializable read", committed, false, next{done: true}},
		{"a write that committed after a linearizable read", committed, true, next{done: true, linearizable: true}},
		{"a refusal, replay or keep from a serializable read", unwritten, false, next{linearizable: true}},
		{"a refusal, replay or keep from a linearizable read", unwritten, true, next{done: true, linearizable: true}},
		{"a failed compare after a serializable read: maybe stale", lostRace, false, next{linearizable: true}},
		{"a failed compare after a linearizable read: a race", lostRace, true, next{pause: true, linearizable: true}},
		{"a failed serializable read", failedRead, false, next{pause: true}},
		{"a failed linearizable read", failedRead, true, next{pause: true, linearizable: true}},
		{"a failed write after a serializable read", failedWrite, false, next{pause: true}},
		{"a failed write after a linearizable read", failedWrite, true, next{pause: true, linearizable: true}},
	} {
		if got := after(c.r, c.linearizable); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}
