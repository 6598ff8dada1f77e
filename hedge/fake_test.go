package hedge

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"
)

// fakeTargets answers asks from a table, recording each call. A target listed in block waits
// until its channel is closed, or the call is cancelled, before answering; a cancelled call
// covers nothing.
type fakeTargets[A any] struct {
	reply func(target string, keys []string) (A, []string)
	block map[string]chan struct{}

	mu        sync.Mutex
	calls     []string // "target:KEY,KEY" in call order
	cancelled []string // the calls that ended because their ctx did
}

func newFake[A any](reply func(target string, keys []string) (A, []string)) *fakeTargets[A] {
	return &fakeTargets[A]{reply: reply, block: map[string]chan struct{}{}}
}

func (f *fakeTargets[A]) ask(ctx context.Context, target string, keys []string) (A, []string) {
	call := target + ":" + strings.Join(slices.Sorted(slices.Values(keys)), ",")
	f.mu.Lock()
	f.calls = append(f.calls, call)
	f.mu.Unlock()
	if ch, ok := f.block[target]; ok {
		select {
		case <-ch:
		case <-ctx.Done():
			f.mu.Lock()
			f.cancelled = append(f.cancelled, call)
			f.mu.Unlock()
			var zero A
			return zero, nil
		}
	}
	return f.reply(target, keys)
}

func (f *fakeTargets[A]) callList() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

func (f *fakeTargets[A]) cancelledList() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.cancelled)
}

// holders is a fake whose targets cover the keys has lists for them; the answer is the target's
// name.
func holders(has map[string][]string) *fakeTargets[string] {
	return newFake(func(target string, keys []string) (string, []string) {
		var covered []string
		for _, k := range keys {
			if slices.Contains(has[target], k) {
				covered = append(covered, k)
			}
		}
		return target, covered
	})
}

// record keeps what seen was given.
type record[A any] struct {
	answers []Answer[A]
	wonBy   map[string]string // key → the target whose answer won it
}

func (r *record[A]) seen(a Answer[A]) {
	r.answers = append(r.answers, a)
	if r.wonBy == nil {
		r.wonBy = map[string]string{}
	}
	for _, k := range a.Won {
		r.wonBy[k] = a.Target
	}
}

// noTicks is a tick channel that never ticks.
var noTicks <-chan time.Time

// keepAnswering has target answer a call of class (in 20ms) every 50ms, as a busy target does,
// until the returned stop is called.
func keepAnswering(p *Policy, target, class string) (stop func()) {
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(50 * time.Millisecond):
				p.answered(target, class, 20*time.Millisecond, true)
			}
		}
	}()
	return func() { close(done) }
}
