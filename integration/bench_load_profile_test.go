package integration

import (
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"flightalliance/tests/framework"
)

// BenchmarkSearchProfiles profiles the three hops of a search under BenchmarkSearchUnderLoad's
// load (16 connections, 200 airport pairs, 5 machines × 1 seller × 10,000 flights a day): for
// 6 seconds each, the CPU and the allocations of the search server, the delegate and one other
// machine (a holder), in FA_PPROF_DIR as <phase>-<process>-{cpu,allocs}.pprof, through the
// processes' own --pprof servers. Three phases: cold pages (limit=20, the alliance run with
// --cache-mib 0 --flights-cache 0 so that every search gathers and joins), first whole answers
// (the delegate with --cache-mib 0, its flight lists kept, and the search server with
// --answer-cache 0: every search joins, sorts and sends its whole list over both hops) and whole
// answers (cached). It skips without FA_PPROF_DIR:
//
//	FA_PPROF_DIR=/tmp/prof go test -run '^$' -bench SearchProfiles -benchtime=1x ./integration/
//	go tool pprof -top /tmp/prof/cold-delegate-cpu.pprof
func BenchmarkSearchProfiles(b *testing.B) {
	out := os.Getenv("FA_PPROF_DIR")
	if out == "" {
		b.Skip("set FA_PPROF_DIR to a directory for the profiles")
	}
	for _, phase := range []struct {
		name, alliance string
		limit          int
		extra, search  []string
	}{
		{"cold", "cold", 20, []string{"--cache-mib", "0", "--flights-cache", "0"}, nil},
		{"first", "cold", 0, []string{"--cache-mib", "0"}, []string{"--answer-cache", "0"}},
		{"whole", "warm", 0, nil, nil},
	} {
		profileSearches(b, out, phase.name, phase.alliance, phase.limit, phase.extra, phase.search)
	}
}

func profileSearches(b *testing.B, out, phase, alliance string, limit int, extra, search []string) {
	sellers := map[string][]string{"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH"}, "m4": {"AF"}, "m5": {"BA"}}
	dir := b.TempDir()
	searchPprof := framework.FreeAddr(b)
	base, _ := framework.StartSearch(b, dir, append([]string{"--log-level", "warn", "--pprof", searchPprof}, search...)...)
	a := startAlliance(b, alliance, sellers, allianceOpts{perDay: 10000, days: 1, search: []string{base}, pprof: true,
		extra: append([]string{"--log-level", "warn"}, extra...)})
	a.waitSettled(3 * time.Minute)
	queries := randomQueries(a.activeData(), loadQueries)
	client := (&loadRun{base: base}).newClient()
	framework.Eventually(b, time.Minute, "the alliance answers complete", func() error {
		_, err := restCall(client, base, queries[0], 0)
		return err
	})
	delegate := a.delegate()
	procs := map[string]string{"search": searchPprof, "delegate": a.machines[delegate].pprof}
	for _, n := range slices.Sorted(maps.Keys(a.machines)) {
		if n != delegate {
			procs["holder"] = a.machines[n].pprof
			break
		}
	}
	const seconds = 6
	var profiles sync.WaitGroup
	for proc, addr := range procs {
		for _, kind := range []string{"profile", "allocs"} {
			profiles.Go(func() {
				resp, err := http.Get(fmt.Sprintf("http://%s/debug/pprof/%s?seconds=%d", addr, kind, seconds))
				if err != nil {
					b.Error(err)
					return
				}
				defer resp.Body.Close()
				body, _ := io.ReadAll(resp.Body)
				name := map[string]string{"profile": "cpu", "allocs": "allocs"}[kind]
				if err := os.WriteFile(filepath.Join(out, phase+"-"+proc+"-"+name+".pprof"), body, 0o644); err != nil {
					b.Error(err)
				}
			})
		}
	}
	var n, failed atomic.Int64
	until := time.Now().Add(seconds*time.Second + 500*time.Millisecond)
	var load sync.WaitGroup
	for range loadWorkers {
		load.Go(func() {
			for time.Now().Before(until) {
				if _, err := restCall(client, base, queries[int(n.Add(1))%len(queries)], limit); err != nil {
					failed.Add(1)
				}
			}
		})
	}
	load.Wait()
	profiles.Wait()
	b.Logf("%s: %d searches in %ds (%d failed), profiles in %s", phase, n.Load(), seconds, failed.Load(), out)
	if failed.Load() > 0 {
		b.Errorf("%s: %d searches failed", phase, failed.Load())
	}
}
