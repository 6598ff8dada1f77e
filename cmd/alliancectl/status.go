package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
)

// statusDoc is the part of an airline server's GET /status that alliancectl reads.
type statusDoc struct {
	Name     string         `json:"name"`
	Alliance string         `json:"alliance"`
	Zone     string         `json:"zone"`
	Replicas int            `json:"replicas"`
	Delegate string         `json:"delegate"`
	Self     machineEntry   `json:"self"`
	Joining  bool           `json:"joining"`
	Leaving  bool           `json:"leaving"`
	View     []machineEntry `json:"view"`
	Round    struct {
		ID         int64  `json:"id"`
		Phase      string `json:"phase"`
		LastResult string `json:"last_result"`
	} `json:"round"`
	Member *struct {
		Leader    string
		IsLeader  bool
		IsLearner bool
		HasQuorum bool
		Members   []struct { // the etcd cluster's members, as this machine's member knows them
			Name       string
			ID         uint64
			ClientURLs []string
			IsLearner  bool
		}
	} `json:"member"`
	Removals []removal `json:"removals"`
}

// machineEntry is one machine of an alliance's view.
type machineEntry struct {
	Name      string   `json:"name"`
	URL       string   `json:"url"`
	Zone      string   `json:"zone"`
	Primaries []string `json:"primaries"`
	Backups   []string `json:"backups"`
}

// registrations is the search server's GET /Services/FlightsSearchReg/.
type registrations struct {
	Registrations []struct {
		Name       string    `json:"name"`
		URI        string    `json:"uri"`
		Alternates []string  `json:"alternates"`
		LastSeen   time.Time `json:"last_seen"`
		Stale      bool      `json:"stale"`
	} `json:"registrations"`
}

// text is the registrations for a human: each alliance, its delegate and how many alternates.
func (regs registrations) text() string {
	var list []string
	for _, r := range regs.Registrations {
		line := fmt.Sprintf("%s → %s (+%d alternates)", r.Name, r.URI, len(r.Alternates))
		if r.Stale {
			line += " STALE, silent since " + r.LastSeen.Format(time.RFC3339)
		}
		list = append(list, line)
	}
	return orNone(strings.Join(list, ", "))
}

func cmdStatus(ctx context.Context, args []string, out io.Writer) error {
	fs, dir := newFlags("status", "status [--endpoints URLs | --search URL] [--alliance A] [--keys DIR | --cacert F --cert F --key F]\n"+
		"  (delegate, etcd leader, quorum, who holds which seller; without --endpoints or --search: --dir's processes)", out)
	rf := addRemoteFlags(fs, true)
	if _, err := parse(fs, args, 0, ""); err != nil {
		return err
	}
	if rf.given() {
		rm, err := rf.open()
		if err != nil {
			return err
		}
		return writeRemoteStatus(ctx, out, rm)
	}
	if _, err := rf.open(); err != nil {
		return err // TLS flags without a remote flag
	}
	s, _, err := openState(*dir)
	if err != nil {
		return err
	}
	if rf.alliance != "" && !s.hasAlliance(rf.alliance) {
		return usagef("--alliance: no alliance %q in this run", rf.alliance)
	}
	return writeStatus(ctx, out, s, rf.alliance)
}

// machineStatus is one machine's process state and, if it answered, its /status.
type machineStatus struct {
	proc  *Proc
	state procState
	doc   *statusDoc
	err   error
}

// writeStatus asks every process of s how it is and writes the answer for a human: of every
// alliance, or only of alliance when it is not "".
func writeStatus(ctx context.Context, out io.Writer, s *State, alliance string) error {
	c, err := s.client(2 * time.Second)
	if err != nil {
		return err
	}
	ms := s.machines("")
	got := make([]machineStatus, len(ms))
	var wg sync.WaitGroup
	for i, p := range ms {
		got[i] = machineStatus{proc: p, state: inspect(*p)}
		if got[i].state != procRunning {
			continue // a paused process would only time out
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var doc statusDoc
			if got[i].err = getJSON(ctx, c, p.URL()+"/status", &doc); got[i].err == nil {
				got[i].doc = &doc
			}
		}()
	}
	wg.Wait()

	for _, p := range s.Procs {
		if p.Kind != kindSearch {
			continue
		}
		fmt.Fprintf(out, "search server %s: pid %d %v", p.URL(), p.Pid, inspect(p))
		var regs registrations
		if err := getJSON(ctx, c, p.URL()+"/Services/FlightsSearchReg/", &regs); err != nil {
			fmt.Fprintf(out, " (registrations: %v)\n", err)
		} else {
			fmt.Fprintf(out, "; registered: %s\n", regs.text())
		}
	}
	network := writeProxies(ctx, out, s)
	for _, a := range s.Alliances {
		if alliance != "" && a.Name != alliance {
			continue
		}
		var mine []machineStatus
		for _, m := range got {
			if m.proc.Alliance == a.Name {
				mine = append(mine, m)
			}
		}
		writeAlliance(out, a.Name, mine, network)
	}
	return nil
}

// writeProxies writes the proxy daemon's line and returns each machine's network state for
// the machine tables: "partitioned", "proxied", "direct", or "?" when the daemon did not answer.
func writeProxies(ctx context.Context, out io.Writer, s *State) map[string]string {
	network := map[string]string{}
	pd := s.proxyd()
	for _, m := range s.machines("") {
		switch {
		case m.Advertise == nil:
			network[m.Name] = "direct"
		default:
			network[m.Name] = "?"
		}
	}
	if pd == nil {
		return network
	}
	fmt.Fprintf(out, "proxy daemon %s: pid %d %v", pd.URL(), pd.Pid, inspect(*pd))
	ms, err := proxiesStatus(ctx, s)
	if err != nil {
		fmt.Fprintf(out, " (%v)\n", err)
		return network
	}
	for _, m := range ms {
		network[m.Name] = "proxied"
		if m.Partitioned {
			network[m.Name] = "PARTITIONED"
		}
	}
	fmt.Fprintf(out, "; %d processes behind proxies; partitioned: %s\n", len(ms), orNone(strings.Join(partitionedNames(ms), ", ")))
	return network
}

func orNone(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// sortedKeys is the keys of m in order; stats.go and proxyd.go use it too.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
