package alliance

import (
	"errors"
	"time"
)

// roundPacer decides when this machine runs a placement round and when it asks every machine
// for a new one. Rounds follow membership changes: one round per membership revision. A round
// that fails without the membership moving on (an etcd timeout, a source that cannot send) would
// never be retried by the others, so after retryAfter the machine asks for a new round (it bumps
// its entry's epoch, which every machine sees as a membership change). It holds no I/O: the
// round loop feeds it what happened and does what it says.
type roundPacer struct {
	retryAfter time.Duration // how long after a failed round to ask for a new one
	handled    int64         // the membership revision of the last round run to its end
	askAt      time.Time     // when to ask for a new round; zero when none is wanted
}

// shouldRun reports whether a round is due for membership revision rev; ready says whether this
// machine can take part (it is in the view, with a live session).
func (p *roundPacer) shouldRun(rev int64, ready bool) bool { return ready && rev > p.handled }

// ran records how the round of rev ended at now. It reports again when the round was superseded
// by a newer membership change: the loop runs the next one at once.
func (p *roundPacer) ran(rev int64, out roundOutcome, now time.Time) (again bool) {
	switch {
	case out.Committed && out.Err == nil:
		p.handled, p.askAt = rev, time.Time{}
	case errors.Is(out.Err, errSuperseded):
		return true
	default:
		p.handled, p.askAt = rev, now.Add(p.retryAfter)
	}
	return false
}

// relisted records that the view was listed again (its watch lost its place): the changes it
// missed cannot be dated, so this machine may name the next round differently from the others.
// It asks for a new round, which every machine then names the same; asked says whether that
// worked, and if not it is tried again a second later.
func (p *roundPacer) relisted(asked bool, now time.Time) {
	if !asked {
		p.askAt = now.Add(time.Second)
	}
}

// shouldAsk reports whether to ask for a new round at now, when the membership is at rev: a
// retry is due and no membership change has come since the round that failed (one that came
// brings its own round, and the retry is dropped).
func (p *roundPacer) shouldAsk(rev int64, now time.Time) bool {
	if p.askAt.IsZero() || !now.After(p.askAt) {
		return false
	}
	if rev > p.handled {
		p.askAt = time.Time{}
		return false
	}
	return true
}

// asked records the outcome of asking for a new round at now: done, or tried again a second later.
func (p *roundPacer) asked(ok bool, now time.Time) {
	if ok {
		p.askAt = time.Time{}
	} else {
		p.askAt = now.Add(time.Second)
	}
}
