package integration

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"flightalliance/search"
	"flightalliance/tests/framework"
)

// chaosOutcome is what one search during the chaos run came to.
type chaosOutcome int

const (
	answerComplete chaosOutcome = iota
	answerIncomplete
	answerWrong
	answerError
)

type chaosAnswer struct {
	at      time.Time
	outcome chaosOutcome
	detail  string
}

type chaosFault struct {
	at      time.Time
	kind    string // kill, kill-two, pause, pause-delegate, partition (with -delegate when it hit the delegate)
	machine string
}

// TestChaos injects random faults — SIGKILL (of one machine, or of two inside the dead-member
// grace), restart, SIGSTOP/SIGCONT (of any machine, or of the delegate), partition/heal — into a
// 5-machine alliance under steady search load for FA_CHAOS (default 20s; `make chaos` runs
// minutes), never more than two machines faulty or still recovering at once (what the alliance
// is built to survive; losing quorum for good needs the operator, see README). Every answer must be complete and
// equal to the reference, or flagged incomplete — never wrong. Afterwards everything is healed
// and the placement invariants must hold with every seller searchable. It reports, per kind of
// fault, how long answers stayed incomplete after it.
//
// FA_CHAOS_REPLICAS sets the alliance's K (default 3). With three or more copies of every seller,
// two faulty machines always leave one; with FA_CHAOS_STRICT=1 (make chaos) no answer may then be
// incomplete either. (Not yet so: 5-minute runs still answer about 2 % incomplete after pauses and
// partitions, none after kills.)
func TestChaos(t *testing.T) {
	duration, seed := chaosSettings(t, "FA_CHAOS")
	replicas := 3
	if v := os.Getenv("FA_CHAOS_REPLICAS"); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil || k < 1 || k > 5 {
			t.Fatalf("FA_CHAOS_REPLICAS: %q, want 1 to 5", v)
		}
		replicas = k
	}
	t.Logf("chaos for %v with FA_CHAOS_SEED=%d, replicas %d (at most two of five machines faulty or recovering at once)",
		duration, seed, replicas)
	rng := rand.New(rand.NewPCG(seed, 0))

	dir := t.TempDir()
	base, _ := framework.StartSearch(t, dir, "--registration-ttl", "10s", "--delegate-timeout", "4s")
	a := newProxiedAlliance(t, "star", map[string][]string{
		"m1": {"LY"}, "m2": {"UA", "LH"}, "m3": {"AF"}, "m4": {"BA", "KE"}, "m5": {"QF"},
	}, []string{"--dead-member-grace", "5s", "--replicas", strconv.Itoa(replicas)}, base)
	a.waitSettled(120 * time.Second)
	queries, want := a.readyQueries(base, 4)

	// Steady load: 10 searches a second, each classified against the reference.
	load := startSteadyLoad(base, queries, want, 100*time.Millisecond)

	// Faults.
	var faults []chaosFault
	unhealthy := map[string]string{} // machine → kill, pause, partition
	end := time.Now().Add(duration)
	for time.Now().Before(end) {
		time.Sleep(time.Duration(1500+rng.IntN(2500)) * time.Millisecond)
		// Undo a fault now and then, so that machines come back during the run too. A machine
		// counts as unhealthy until it is back in the alliance (see backInAlliance): the
		// alliance is meant to survive two faulty machines of five, and one still catching up is
		// not healthy yet.
		for _, n := range slices.Sorted(maps.Keys(unhealthy)) {
			if unhealthy[n] == "recovering" {
				if a.backInAlliance(n, unhealthy) {
					t.Logf("%s back %s", clock(time.Now()), n)
					delete(unhealthy, n)
				}
				continue
			}
			if rng.IntN(2) == 0 {
				continue
			}
			switch unhealthy[n] {
			case "kill":
				a.restart(n)
			case "pause":
				a.resume(n)
			case "partition":
				a.heal(n)
			}
			t.Logf("%s undo %s %s", clock(time.Now()), unhealthy[n], n)
			unhealthy[n] = "recovering"
		}
		if len(unhealthy) >= 2 {
			continue
		}
		var healthy []string
		for _, n := range a.order {
			if _, bad := unhealthy[n]; !bad {
				healthy = append(healthy, n)
			}
		}
		victims := []string{healthy[rng.IntN(len(healthy))]}
		delegate := a.actingDelegate(healthy)
		kind := []string{"kill", "pause", "partition", "kill-two", "pause-delegate"}[rng.IntN(5)]
		switch {
		case kind == "kill-two" && len(unhealthy) == 0:
			// Two kills inside the dead-member grace: the second before the first is removed.
			others := slices.DeleteFunc(slices.Clone(healthy), func(n string) bool { return n == victims[0] })
			victims = append(victims, others[rng.IntN(len(others))])
		case kind == "kill-two":
			kind = "kill"
		case kind == "pause-delegate" && slices.Contains(healthy, delegate):
			victims[0] = delegate
		case kind == "pause-delegate":
			kind = "pause"
		}
		for _, victim := range victims {
			fault := strings.TrimSuffix(strings.TrimSuffix(kind, "-two"), "-delegate")
			switch fault {
			case "kill":
				a.kill(victim)
			case "pause":
				a.pause(victim)
			case "partition":
				a.partition(victim)
			}
			unhealthy[victim] = fault
			label := kind
			if victim == delegate && !strings.HasSuffix(label, "-delegate") {
				label += "-delegate"
			}
			faults = append(faults, chaosFault{at: time.Now(), kind: label, machine: victim})
			t.Logf("%s %s %s", clock(time.Now()), label, victim)
		}
	}
	timed := load.finish() // the sender and every search it started

	// Heal everything; the alliance must settle with every seller searchable.
	for _, n := range slices.Sorted(maps.Keys(unhealthy)) {
		switch unhealthy[n] { // "recovering" needs nothing more
		case "kill":
			a.restart(n)
		case "pause":
			a.resume(n)
		case "partition":
			a.heal(n)
		}
	}
	took := a.waitSettled(120 * time.Second)
	t.Logf("settled %v after healing everything", took)
	framework.Eventually(t, 30*time.Second, "every seller searchable after the heal", func() error {
		return checkSearch(base, []*testAlliance{a}, queries)
	})

	answers := make([]chaosAnswer, len(timed))
	for i, x := range timed {
		answers[i] = x.chaosAnswer
	}
	count := reportChaos(t, faults, answers)
	if replicas >= 3 && os.Getenv("FA_CHAOS_STRICT") == "1" && count[answerIncomplete] > 0 {
		t.Errorf("%d answers incomplete with %d copies of every seller and at most two machines faulty", count[answerIncomplete], replicas)
	}
}

// classify runs one search and compares it with the reference.
func classify(base string, q query, want []string) chaosAnswer {
	at := time.Now()
	var ans search.Answer
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := getJSON(ctx, searchURL(base, q), &ans); err != nil {
		return chaosAnswer{at: at, outcome: answerError, detail: err.Error()}
	}
	if !ans.Complete {
		return chaosAnswer{at: at, outcome: answerIncomplete, detail: fmt.Sprintf("%+v", ans.Alliances)}
	}
	if got := renderedTrips(ans); !slices.Equal(got, want) {
		return chaosAnswer{at: at, outcome: answerWrong, detail: fmt.Sprintf("%v: %d trips, want %d", q, len(got), len(want))}
	}
	return chaosAnswer{at: at, outcome: answerComplete}
}

// actingDelegate asks a healthy machine who the delegate is.
func (a *testAlliance) actingDelegate(healthy []string) string {
	for _, n := range healthy {
		if st, err := a.status(n); err == nil {
			return st.Delegate
		}
	}
	return ""
}

// reportChaos logs the counts and, per kind of fault, how long answers stayed incomplete after
// it (time from the fault to the last incomplete answer before the next fault); it fails the test
// on any wrong answer or error.
func reportChaos(t *testing.T, faults []chaosFault, answers []chaosAnswer) map[chaosOutcome]int {
	sort.Slice(answers, func(i, j int) bool { return answers[i].at.Before(answers[j].at) })
	count := map[chaosOutcome]int{}
	for _, ans := range answers {
		count[ans.outcome]++
		if ans.outcome == answerIncomplete && count[answerIncomplete] <= 3 {
			t.Logf("incomplete at %s: %s", clock(ans.at), ans.detail)
		}
		if ans.outcome == answerWrong || ans.outcome == answerError {
			t.Errorf("at %s: %v", clock(ans.at), ans.detail)
		}
	}
	t.Logf("answers: %d complete and correct, %d incomplete (flagged), %d wrong, %d errors",
		count[answerComplete], count[answerIncomplete], count[answerWrong], count[answerError])
	outage := map[string][]time.Duration{}
	incomplete := map[string]int{}
	for i, f := range faults {
		until := time.Now()
		if i+1 < len(faults) {
			until = faults[i+1].at
		}
		var last time.Duration
		for _, ans := range answers {
			if ans.at.Before(f.at) || !ans.at.Before(until) || ans.outcome == answerComplete {
				continue
			}
			incomplete[f.kind]++
			last = ans.at.Sub(f.at)
		}
		outage[f.kind] = append(outage[f.kind], last)
	}
	for _, kind := range slices.Sorted(maps.Keys(outage)) {
		d := outage[kind]
		slices.Sort(d)
		t.Logf("after %-18s ×%d: incomplete answers %d; answers complete again after p50 %v, max %v",
			kind, len(d), incomplete[kind], d[len(d)/2].Round(10*time.Millisecond), d[len(d)-1].Round(10*time.Millisecond))
	}
	return count
}

// chaosSettings reads a chaos run's length from the environment variable durationVar (default
// 20 s, as in make test) and its fault sequence's seed from FA_CHAOS_SEED (default: the clock;
// the run logs it, so a failing run can be replayed).
func chaosSettings(t *testing.T, durationVar string) (time.Duration, uint64) {
	t.Helper()
	duration := 20 * time.Second
	if v := os.Getenv(durationVar); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("%s: %v", durationVar, err)
		}
		duration = d
	}
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv("FA_CHAOS_SEED"); v != "" {
		s, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("FA_CHAOS_SEED: %v", err)
		}
		seed = s
	}
	return duration, seed
}

// backInAlliance reports whether machine n, whose fault was undone, is a whole member again: it
// answers /status, is not joining, is in no round, has a session, and a healthy machine's view
// lists it. A machine resumed or healed answers at once from its state before the fault (not
// joining, its old session not yet known lost): the others' view says whether it is back (its
// old entry left their view when its lease expired).
func (a *testAlliance) backInAlliance(n string, unhealthy map[string]string) bool {
	st, err := a.status(n)
	if err != nil || st.Joining || st.Session == "" || st.Round.Phase != "idle" {
		return false
	}
	for _, other := range a.live() {
		if _, bad := unhealthy[other]; bad || other == n {
			continue
		}
		if ost, err := a.status(other); err == nil && slices.ContainsFunc(ost.View, func(e viewMachine) bool { return e.Name == n }) {
			return true
		}
	}
	return false
}

// clock is an instant as the chaos log writes it (the machines' logs are in UTC).
func clock(at time.Time) string { return at.UTC().Format("15:04:05.000") }
