package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// printHints tells the user what to try against the running system.
func printHints(out io.Writer, s *State, foreground bool) {
	dirFlag := ""
	if def, _ := filepath.Abs("var/run"); s.Dir != def {
		dirFlag = " --dir " + shellQuote(relPath(s.Dir))
	}
	ctl := func(cmd string) string { return self() + " " + cmd + dirFlag }
	flights := shellQuote(relPath(filepath.Join(s.Bin, "flights")))
	q := s.Query
	var eps []string
	for _, m := range s.machines(s.Alliances[0].Name) {
		eps = append(eps, s.scheme()+m.Ports.Client)
	}
	fmt.Fprintf(out, "\nflightalliance is up: search server %s", s.Search)
	for _, a := range s.Alliances {
		var names []string
		for _, m := range s.machines(a.Name) {
			names = append(names, m.Name+"("+strings.Join(m.Sellers, ",")+")")
		}
		fmt.Fprintf(out, "; alliance %s: %s", a.Name, strings.Join(names, " "))
	}
	fmt.Fprintln(out)
	if s.secure() {
		fmt.Fprintf(out, "Locked down with the keys in %s: HTTPS everywhere with certificates of its CA (ca.crt), a token per\n"+
			"alliance guarding its machines (read from a file, never on a command line), registrations trusted\n"+
			"only with those tokens. up and run with --insecure run open over plain HTTP.\n", relPath(s.Keys))
	} else {
		fmt.Fprintf(out, "Running OPEN (--insecure): plain HTTP, no tokens; anyone who can reach a port can use it.\n")
	}
	fmt.Fprintf(out, "\nSearch (the flights client, then the REST equivalent):\n")
	fmt.Fprintf(out, "  %s search --server %s%s --from %s --to %s --date %s\n", flights, s.Search, s.flightsTLS(), q.Src, q.Dst, q.Date)
	fmt.Fprintf(out, "  curl %s'%s'\n", s.curlTLS(false), searchURL(s.Search, q))
	fmt.Fprintf(out, "\nThe coordination tree of alliance %s (etcdctl is optional, not needed to run;\n"+
		"  go install go.etcd.io/etcd/etcdctl/v3@v3.7.3 installs it):\n", s.Alliances[0].Name)
	fmt.Fprintf(out, "  etcdctl --endpoints %s%s get --prefix /alliances/\n", strings.Join(eps, ","), s.etcdctlTLS())
	fmt.Fprintf(out, "\nStatus of each machine (JSON):\n")
	for _, m := range s.machines("") {
		fmt.Fprintf(out, "  %-4s curl %s%s/status\n", m.Name, s.curlTLS(true), m.URL())
	}
	m2 := s.machines("")[0].Name
	if ms := s.machines(""); len(ms) > 1 {
		m2 = ms[1].Name
	}
	fmt.Fprintf(out, "\nBreak it (in another terminal):\n")
	cmds := []string{"status", "kill " + m2, "restart " + m2, "pause " + m2, "resume " + m2}
	if s.proxyd() != nil {
		cmds = append(cmds, "partition "+m2, "heal")
	}
	spare := s.spareMachineName()
	cmds = append(cmds, "add "+spare+" --seller ZZ --alliance "+s.Alliances[0].Name, "leave "+spare, "load --rate 20 --for 10s")
	for _, cmd := range cmds {
		fmt.Fprintf(out, "  %s\n", ctl(cmd))
	}
	if !foreground {
		fmt.Fprintf(out, "  %s\n", ctl("down"))
	}
	fmt.Fprintf(out, "Logs: %s   State: %s\n", relPath(filepath.Join(s.Dir, "logs")), relPath(filepath.Join(s.Dir, stateFile)))
}

// relPath shortens path relative to the working directory when it lies below it.
func relPath(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}

// spareMachineName is the first name m<N> no process of the run has, for the `add` hint.
func (s *State) spareMachineName() string {
	for n := len(s.machines("")) + 1; ; n++ {
		name := fmt.Sprintf("m%d", n)
		if _, err := s.proc(name); err != nil {
			return name
		}
	}
}
