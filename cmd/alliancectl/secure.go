package main

import (
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"flightalliance/internal/airlinecmd"
)

// A run with keys (the default; State.Keys names their directory) is locked down: every server
// speaks HTTPS with a certificate of the keys' CA and requires one from its callers (the search
// server's REST clients excepted), each alliance's machines share a token that guards the
// IntraClusterService and rides on their registrations, and the search server trusts only those
// tokens. Secrets reach the processes as file names, never on a command line.

// secure reports whether the run has keys.
func (s *State) secure() bool { return s.Keys != "" }

// keys is the run's keys directory.
func (s *State) keys() keyDir { return keyDir(s.Keys) }

// scheme is the scheme of every URL of the run.
func (s *State) scheme() string {
	if s.secure() {
		return "https://"
	}
	return "http://"
}

// tlsArgs are the --tls-* flags of the server called name ("search" or a machine's name).
func (s *State) tlsArgs(name string) []string {
	if !s.secure() {
		return nil
	}
	return airlinecmd.TLSArgs(s.keys().serverFiles(name))
}

// searchSecurity are the search server's security flags: whose registrations it trusts, and TLS.
func (s *State) searchSecurity() []string {
	if !s.secure() {
		return nil
	}
	return append([]string{"--trust", s.keys().trust()}, s.tlsArgs(searchName)...)
}

// transport is how alliancectl reaches the run's servers: trusting the keys' CA and presenting
// its own certificate when the run has keys.
func (s *State) transport() (*http.Transport, error) {
	t := http.DefaultTransport.(*http.Transport).Clone()
	if !s.secure() {
		return t, nil
	}
	cfg, err := s.keys().clientFiles().Client()
	if err != nil {
		return nil, fmt.Errorf("alliancectl's client certificate in %s: %w", relPath(s.Keys), err)
	}
	t.TLSClientConfig = cfg
	return t, nil
}

// client is an HTTP client for the run's servers whose every request has a deadline.
func (s *State) client(timeout time.Duration) (*http.Client, error) {
	t, err := s.transport()
	if err != nil {
		return nil, err
	}
	return &http.Client{Timeout: timeout, Transport: t}, nil
}

// curlTLS are the curl flags that reach a server of the run: the CA, and for the machines
// (which want a client certificate) alliancectl's certificate too.
func (s *State) curlTLS(withCert bool) string {
	if !s.secure() {
		return ""
	}
	k := s.keys()
	flags := "--cacert " + shellQuote(relPath(k.caCert()))
	if withCert {
		flags += " --cert " + shellQuote(relPath(k.cert(ctlName))) + " --key " + shellQuote(relPath(k.key(ctlName)))
	}
	return flags + " "
}

// etcdctlTLS are etcdctl's flags for the machines' etcd client URLs.
func (s *State) etcdctlTLS() string {
	if !s.secure() {
		return ""
	}
	k := s.keys()
	return fmt.Sprintf(" --cacert %s --cert %s --key %s", shellQuote(relPath(k.caCert())),
		shellQuote(relPath(k.cert(ctlName))), shellQuote(relPath(k.key(ctlName))))
}

// flightsTLS is the flights client's flag for the search server.
func (s *State) flightsTLS() string {
	if !s.secure() {
		return ""
	}
	return " --ca " + shellQuote(relPath(s.keys().caCert()))
}

// runKeys makes sure the keys directory of a run about to start holds what it needs: a
// certificate per machine, the search server's and alliancectl's, and a token per alliance
// (kept when there, made when not), and says so in one line.
func runKeys(dir keyDir, alliances, machines []string, out io.Writer) error {
	files, err := ensureKeys(keySpec{Dir: dir, Alliances: alliances, Machines: machines, Hosts: defaultHosts})
	if err != nil {
		return err
	}
	var wrote []string
	for _, f := range files {
		if f.Wrote {
			wrote = append(wrote, filepath.Base(f.Path))
		}
	}
	switch {
	case len(wrote) == 0:
		fmt.Fprintf(out, "keys: reusing %s (TLS everywhere, a token per alliance; --insecure runs open)\n", relPath(string(dir)))
	case len(wrote) == len(files):
		fmt.Fprintf(out, "keys: made %s (alliancectl keys: a CA, a certificate per process, a token per alliance; --insecure runs open)\n",
			relPath(string(dir)))
	default:
		fmt.Fprintf(out, "keys: reusing %s, added %s\n", relPath(string(dir)), strings.Join(wrote, " "))
	}
	return nil
}
