package main

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// memberDoc is the part of a machine's GET /status the run tests read: its view, its delegate
// and its etcd member's list of members (which alliancectl's statusDoc leaves out).
type memberDoc struct {
	Name     string `json:"name"`
	Delegate string `json:"delegate"`
	Joining  bool   `json:"joining"`
	View     []struct {
		Name string `json:"name"`
	} `json:"view"`
	Member *struct {
		Leader    string
		IsLearner bool
		HasQuorum bool
		Members   []struct {
			Name      string
			ID        uint64
			IsLearner bool
		}
	} `json:"member"`
	Removals []struct {
		Member string `json:"member"`
		By     string `json:"by"`
		Reason string `json:"reason"`
	} `json:"removals"`
}

func (d *memberDoc) inView(name string) bool {
	for _, e := range d.View {
		if e.Name == name {
			return true
		}
	}
	return false
}

// member finds name in d's etcd member list.
func (d *memberDoc) member(name string) (id uint64, learner, ok bool) {
	if d.Member == nil {
		return 0, false, false
	}
	for _, mb := range d.Member.Members {
		if mb.Name == name {
			return mb.ID, mb.IsLearner, true
		}
	}
	return 0, false, false
}

func (d *memberDoc) String() string {
	var view, members []string
	for _, e := range d.View {
		view = append(view, e.Name)
	}
	quorum, leader := false, ""
	if d.Member != nil {
		quorum, leader = d.Member.HasQuorum, d.Member.Leader
		for _, mb := range d.Member.Members {
			s := fmt.Sprintf("%s/%x", orNone(mb.Name), mb.ID)
			if mb.IsLearner {
				s += "(learner)"
			}
			members = append(members, s)
		}
	}
	return fmt.Sprintf("delegate %s, view [%s], members [%s], quorum %v (leader %s), joining %v",
		orNone(d.Delegate), strings.Join(view, " "), strings.Join(members, " "), quorum, orNone(leader), d.Joining)
}

// runWatch polls a run's machines and remembers what it saw, so that a test can require an
// invariant at every poll of a window rather than only at its end.
type runWatch struct {
	t       *testing.T
	dir     string
	c       *http.Client
	ids     map[string]uint64 // each machine's etcd member ID, as first seen
	misses  map[string]int    // polls in a row a running machine did not answer
	patient map[string]bool   // machines that may not answer for a while (starting again)
	polls   int
}

func newRunWatch(t *testing.T, dir string) *runWatch {
	_, c := runClient(t, dir, 3*time.Second)
	return &runWatch{t: t, dir: dir, c: c, ids: map[string]uint64{}, misses: map[string]int{}, patient: map[string]bool{}}
}

// poll asks the named machines for their /status at once, over TLS with alliancectl's client
// certificate, and returns the answers. A machine whose process is not running fails the test
// at once; one that does not answer three polls in a row too, unless it is patient (a single
// slow answer on a busy machine is only logged).
func (w *runWatch) poll(names ...string) map[string]*memberDoc {
	w.t.Helper()
	w.polls++
	s, err := loadState(w.dir) // restart records a new pid
	if err != nil {
		w.t.Fatal(err)
	}
	docs := make([]*memberDoc, len(names))
	errs := make([]error, len(names))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for i, n := range names {
		p, err := s.proc(n)
		if err != nil {
			w.t.Fatal(err)
		}
		if st := inspect(*p); st != procRunning {
			w.t.Fatalf("poll %d: %s (pid %d) is %v", w.polls, n, p.Pid, st)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var d memberDoc
			if errs[i] = getJSON(ctx, w.c, p.URL()+"/status", &d); errs[i] == nil {
				docs[i] = &d
			}
		}()
	}
	wg.Wait()
	out := map[string]*memberDoc{}
	for i, n := range names {
		if errs[i] != nil {
			w.misses[n]++
			w.t.Logf("poll %d: %s did not answer /status (%d in a row): %v", w.polls, n, w.misses[n], errs[i])
			if w.misses[n] >= 3 && !w.patient[n] {
				w.t.Fatalf("%s did not answer /status three polls in a row", n)
			}
			continue
		}
		w.misses[n] = 0
		out[n] = docs[i]
	}
	return out
}

// stay fails at once unless every machine that answered has each of names in its view and in
// its etcd member list, always under the member ID first seen: a member removed and added
// again gets a new ID, so a removal shows even if it happened between two polls.
func (w *runWatch) stay(docs map[string]*memberDoc, names ...string) {
	w.t.Helper()
	for _, obs := range slices.Sorted(maps.Keys(docs)) {
		d := docs[obs]
		for _, n := range names {
			if !d.inView(n) {
				w.t.Fatalf("poll %d: %s left the view of %s: %v", w.polls, n, obs, d)
			}
			id, _, ok := d.member(n)
			if !ok {
				w.t.Fatalf("poll %d: %s left the etcd member list of %s: %v", w.polls, n, obs, d)
			}
			if first, seen := w.ids[n]; !seen {
				w.ids[n] = id
			} else if id != first {
				w.t.Fatalf("poll %d: %s's etcd member is %x in the list of %s, was %x: it was removed and added again: %v",
					w.polls, n, id, obs, first, d)
			}
		}
	}
}

// forget drops what the watch remembers of name (its member ID, its misses): after a kill its
// member may go and a new one come.
func (w *runWatch) forget(name string) {
	delete(w.ids, name)
	delete(w.misses, name)
}

// agreement says why docs do not show names settled: every one of names answering, each
// having all of names in its view and its etcd member list (all voters when voters is
// true), seeing a quorum, not joining, and all naming the same delegate, one of names.
// nil when they do.
func agreement(docs map[string]*memberDoc, names []string, voters bool) error {
	delegate := ""
	for _, obs := range names {
		d, ok := docs[obs]
		if !ok {
			return fmt.Errorf("%s did not answer", obs)
		}
		switch {
		case d.Member == nil || !d.Member.HasQuorum:
			return fmt.Errorf("%s sees no quorum: %v", obs, d)
		case d.Joining:
			return fmt.Errorf("%s is still joining: %v", obs, d)
		case d.Delegate == "" || !slices.Contains(names, d.Delegate):
			return fmt.Errorf("%s names delegate %q: %v", obs, d.Delegate, d)
		case delegate != "" && d.Delegate != delegate:
			return fmt.Errorf("%s names delegate %s, others %s: %v", obs, d.Delegate, delegate, d)
		}
		delegate = d.Delegate
		for _, n := range names {
			_, learner, ok := d.member(n)
			switch {
			case !d.inView(n):
				return fmt.Errorf("%s is not in the view of %s: %v", n, obs, d)
			case !ok:
				return fmt.Errorf("%s is not in the etcd member list of %s: %v", n, obs, d)
			case voters && learner:
				return fmt.Errorf("%s is a learner in the etcd member list of %s: %v", n, obs, d)
			}
		}
	}
	return nil
}

// holdFor polls names about every second for d, calls check on each poll's answers (check
// fails the test at once when the invariant breaks), and returns the number of polls.
func (w *runWatch) holdFor(d time.Duration, names []string, check func(map[string]*memberDoc)) int {
	w.t.Helper()
	start, n := time.Now(), 0
	for next := start; time.Since(start) < d; {
		check(w.poll(names...))
		n++
		next = next.Add(time.Second)
		time.Sleep(time.Until(next))
	}
	return n
}

// removedBesides lists the etcd member removals recorded in the coordination tree (each
// machine's /status shows the last of each member) of members other than those named.
func removedBesides(docs map[string]*memberDoc, names ...string) []string {
	var out []string
	for _, obs := range slices.Sorted(maps.Keys(docs)) {
		for _, r := range docs[obs].Removals {
			if !slices.Contains(names, r.Member) {
				out = append(out, fmt.Sprintf("%s by %s (%s), as %s says", r.Member, r.By, r.Reason, obs))
			}
		}
	}
	return out
}

// statusHas fails unless alliancectl status printed every one of wants.
func statusHas(t *testing.T, st string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(st, want) {
			t.Fatalf("status lacks %q:\n%s", want, st)
		}
	}
}
