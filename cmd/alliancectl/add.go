package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

var (
	machineNameRe = regexp.MustCompile(`^[a-z][a-z0-9-]{0,31}$`)
	sellerCodeRe  = regexp.MustCompile(`^[A-Z0-9]{2,8}$`)
)

func cmdAdd(ctx context.Context, args []string, out io.Writer) error {
	fs, dir := newFlags("add", "add NAME --seller CODE [--seller CODE...] [--alliance A] [--zone Z] [--wait 60s]", out)
	var sellers []string
	fs.Func("seller", "seller code the new machine brings (repeatable; its CSV is generated if the run has none)", func(v string) error {
		for _, c := range strings.Split(v, ",") {
			if !sellerCodeRe.MatchString(c) {
				return fmt.Errorf("%q is not a seller code (2-8 of A-Z, 0-9)", c)
			}
			sellers = append(sellers, c)
		}
		return nil
	})
	alliance := fs.String("alliance", "", "alliance to join (default: the first one)")
	zone := fs.String("zone", "", "the new machine's zone (airline --zone; default: its name)")
	wait := fs.Duration("wait", 60*time.Second, "how long to wait until the machine is in the alliance's view (0: do not wait)")
	pos, err := parse(fs, args, 1, "NAME, the new machine's name")
	if err != nil {
		return err
	}
	name := pos[0]
	switch {
	case !machineNameRe.MatchString(name) || name == "search" || name == proxydName:
		return usagef("NAME: %q is not a machine name (lower-case letters, digits, '-', starting with a letter)", name)
	case len(sellers) == 0:
		return usagef("--seller: missing (the seller code the new machine brings, such as ZZ)")
	}
	abs, err := absDir("--dir", *dir)
	if err != nil {
		return err
	}
	var (
		p   Proc
		cur State // the run as recorded with p
	)
	err = updateState(abs, func(s *State) error {
		if *alliance == "" {
			*alliance = s.Alliances[0].Name
		}
		if !s.hasAlliance(*alliance) {
			return usagef("--alliance: no alliance %q in this run", *alliance)
		}
		if _, err := s.proc(name); err == nil {
			return usagef("NAME: %s already exists (restart brings a stopped machine back)", name)
		}
		var join []string
		for _, m := range s.machines(*alliance) {
			if inspect(*m) == procRunning {
				join = append(join, s.scheme()+m.advertised().Client)
			}
		}
		if len(join) == 0 {
			return fmt.Errorf("alliance %s has no running machine to join", *alliance)
		}
		if err := generate(ctx, s.Bin, s.Data, sellers); err != nil {
			return err
		}
		if s.secure() {
			// A certificate of the run's CA (kept if the keys directory has one for this name).
			files, err := ensureKeys(keySpec{Dir: s.keys(), Alliances: []string{*alliance}, Machines: []string{name}, Hosts: defaultHosts})
			if err != nil {
				return err
			}
			writeKeyFiles(out, files)
		}
		addrs, err := freeAddrs(6, s.takenAddrs())
		if err != nil {
			return err
		}
		p = Proc{Name: name, Kind: kindAirline, Alliance: *alliance, Sellers: slices.Clone(sellers), TLS: s.secure(), Zone: *zone,
			Ports: Ports{Listen: addrs[0], Peer: addrs[1], Client: addrs[2]},
			Log:   filepath.Join(s.Dir, "logs", name+".log")}
		if s.proxyd() != nil {
			p.Advertise = &Ports{Listen: addrs[3], Peer: addrs[4], Client: addrs[5]}
			if err := proxydCall(ctx, s, http.MethodPut, "/ctl/machines/"+name,
				proxySpec{Advertise: *p.Advertise, Upstream: p.Ports}, nil); err != nil {
				return fmt.Errorf("%s: starting its proxies: %w", name, err)
			}
		}
		cmd := airline(s, p)
		cmd.Join = strings.Join(join, ",")
		p.Args = cmd.Args()
		if err := startProc(&p); err != nil {
			return err
		}
		s.Procs = append(s.Procs, p)
		cur = *s
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s: started as pid %d, joining alliance %s with --join, bringing %s (log %s)\n",
		name, p.Pid, *alliance, strings.Join(sellers, ","), relPath(p.Log))
	if *wait <= 0 {
		return nil
	}
	c, err := cur.client(2 * time.Second)
	if err != nil {
		return err
	}
	took, err := waitJoined(ctx, c, p, *wait)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s: in the alliance's view with primaries %v, backups %v (%v after start)\n",
		name, took.doc.Self.Primaries, took.doc.Self.Backups, took.after.Round(time.Millisecond))
	return nil
}

type joined struct {
	doc   statusDoc
	after time.Duration
}

// waitJoined polls p's /status until it has finished joining and its view names it.
func waitJoined(ctx context.Context, c *http.Client, p Proc, timeout time.Duration) (joined, error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var last error
	for {
		var doc statusDoc
		err := getJSON(ctx, c, p.URL()+"/status", &doc)
		if err == nil {
			switch {
			case doc.Joining:
				err = errors.New("still joining")
			case !slices.ContainsFunc(doc.View, func(e machineEntry) bool { return e.Name == p.Name }):
				err = errors.New("not yet in its own view")
			default:
				return joined{doc, time.Since(start)}, nil
			}
		}
		last = err
		if inspect(p) == procGone {
			return joined{}, fmt.Errorf("%s (pid %d) exited; last lines of %s:\n%s", p.Name, p.Pid, p.Log, logTail(p.Log, 3000))
		}
		select {
		case <-ctx.Done():
			return joined{}, fmt.Errorf("%s: not in the alliance within %v: %v (log %s)", p.Name, timeout, last, relPath(p.Log))
		case <-time.After(250 * time.Millisecond):
		}
	}
}
