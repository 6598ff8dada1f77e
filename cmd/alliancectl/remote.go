package main

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// An operator's host runs nothing of the alliance: status, replicas, load and backup reach an
// alliance running anywhere through its etcd (--endpoints, the machines' client URLs) or its
// search server (--search, whose registrations name each alliance's delegate), with TLS files
// given by flag. Without either flag they act on what `up` started in --dir, as before.

// remoteFlags are the flags that point a command at an alliance running anywhere.
type remoteFlags struct {
	endpoints, search, alliance string
	cacert, cert, key, keys     string
}

// addRemoteFlags registers them on fs; withAlliance adds --alliance.
func addRemoteFlags(fs *flag.FlagSet, withAlliance bool) *remoteFlags {
	r := &remoteFlags{}
	fs.StringVar(&r.endpoints, "endpoints", "", "etcd client URLs of the alliance's machines, comma-separated (https://m1:2379,...): act on an alliance running anywhere instead of --dir's")
	fs.StringVar(&r.search, "search", "", "the search server's URL (https://host:8443): its registrations name each alliance's delegate; instead of --dir's")
	if withAlliance {
		fs.StringVar(&r.alliance, "alliance", "", "the alliance to act on (default: the only one, or the first of --dir's)")
	}
	fs.StringVar(&r.cacert, "cacert", "", "with --endpoints/--search: the CA certificate that verifies the servers (default: the system's roots)")
	fs.StringVar(&r.cert, "cert", "", "with --endpoints/--search: alliancectl's client certificate (the machines and their etcd want one of their CA)")
	fs.StringVar(&r.key, "key", "", "with --endpoints/--search: the private key of --cert")
	fs.StringVar(&r.keys, "keys", "", "with --endpoints/--search: a directory with ca.crt, alliancectl.crt and alliancectl.key (keys --out K writes K/hosts/alliancectl), instead of --cacert/--cert/--key")
	return r
}

// given reports whether the command acts on a remote alliance.
func (r *remoteFlags) given() bool { return r.endpoints != "" || r.search != "" }

// remote is a checked set of remote flags: URLs parsed, TLS files loaded.
type remote struct {
	endpoints []string // etcd client URLs
	search    string   // the search server's base URL
	alliance  string
	tls       *tls.Config // for https://: the CA's roots (nil: the system's) and alliancectl's certificate
	caFlag    string      // the flag that gave the CA ("--cacert" or "--keys"), "" when none did
	certFlag  string      // the flag that gave the client certificate, "" when none did
}

// open checks the flags and loads the TLS files; every error names its flag.
func (r *remoteFlags) open() (*remote, error) {
	tlsGiven := r.cacert != "" || r.cert != "" || r.key != "" || r.keys != ""
	switch {
	case r.endpoints != "" && r.search != "":
		return nil, usagef("--endpoints, --search: give one of them, not both")
	case !r.given() && tlsGiven:
		return nil, usagef("--cacert, --cert, --key and --keys go with --endpoints or --search (without them the command uses --dir's keys)")
	case r.keys != "" && (r.cacert != "" || r.cert != "" || r.key != ""):
		return nil, usagef("--keys: give it or --cacert/--cert/--key, not both")
	case (r.cert == "") != (r.key == ""):
		return nil, usagef("--cert, --key: give both or neither")
	}
	rm := &remote{alliance: r.alliance}
	if r.search != "" {
		u, err := baseURL("--search", r.search)
		if err != nil {
			return nil, err
		}
		rm.search = u
	}
	if r.endpoints != "" {
		for _, e := range strings.Split(r.endpoints, ",") {
			u, err := baseURL("--endpoints", strings.TrimSpace(e))
			if err != nil {
				return nil, err
			}
			rm.endpoints = append(rm.endpoints, u)
		}
	}
	ca, cert, key := r.cacert, r.cert, r.key
	rm.caFlag, rm.certFlag = "--cacert", "--cert"
	if r.keys != "" {
		ca, cert, key = filepath.Join(r.keys, caName+".crt"), filepath.Join(r.keys, ctlName+".crt"), filepath.Join(r.keys, ctlName+".key")
		rm.caFlag, rm.certFlag = "--keys", "--keys"
		for _, f := range []string{ca, cert, key} {
			if _, err := os.Stat(f); err != nil {
				return nil, usagef("--keys: %s has no %s (it wants %s.crt, %s.crt and %s.key: keys --out K writes them to K/hosts/%s)",
					r.keys, filepath.Base(f), caName, ctlName, ctlName, ctlName)
			}
		}
	}
	rm.tls = &tls.Config{MinVersion: tls.VersionTLS12}
	if ca == "" {
		rm.caFlag = ""
	} else {
		pemData, err := os.ReadFile(ca)
		if err != nil {
			return nil, usagef("%s: %v", rm.caFlag, err)
		}
		rm.tls.RootCAs = x509.NewCertPool()
		if !rm.tls.RootCAs.AppendCertsFromPEM(pemData) {
			return nil, usagef("%s: %s holds no PEM certificate", rm.caFlag, ca)
		}
	}
	if cert == "" {
		rm.certFlag = ""
	} else {
		pair, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			flagName := "--cert, --key"
			if r.keys != "" {
				flagName = "--keys"
			}
			return nil, usagef("%s: %s, %s: %v", flagName, cert, key, err)
		}
		rm.tls.Certificates = []tls.Certificate{pair}
	}
	return rm, nil
}

// baseURL checks that v is an http:// or https:// URL with a host and port and returns its
// scheme://host (a path, if any, dropped).
func baseURL(flagName, v string) (string, error) {
	u, err := url.Parse(v)
	switch {
	case err != nil:
		return "", usagef("%s: %q: %v", flagName, v, err)
	case u.Scheme != "http" && u.Scheme != "https":
		return "", usagef("%s: %q is not an http:// or https:// URL", flagName, v)
	case u.Hostname() == "" || u.Port() == "":
		return "", usagef("%s: %q has no host:port", flagName, v)
	}
	return u.Scheme + "://" + u.Host, nil
}

// httpClient is a client of the alliance's servers (HTTP/1.1: etcd's listeners may offer h2
// without serving every path over it) whose every request has a deadline.
func (rm *remote) httpClient(timeout time.Duration) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = rm.tls.Clone()
	t.ForceAttemptHTTP2 = false
	t.Protocols = new(http.Protocols)
	t.Protocols.SetHTTP1(true)
	return &http.Client{Timeout: timeout, Transport: t}
}

// explain says why a call to target (given by flagName, or found through it) failed, naming
// the flag that would fix it: the CA, the client certificate, the scheme, or the address.
func (rm *remote) explain(flagName, target string, err error) error {
	msg := err.Error()
	var unknownCA x509.UnknownAuthorityError
	var badHost x509.HostnameError
	var verify *tls.CertificateVerificationError
	switch {
	case errors.As(err, &unknownCA) || errors.As(err, &verify) && strings.Contains(msg, "unknown authority"):
		if rm.caFlag == "" {
			return fmt.Errorf("--cacert: %s (%s) presents a certificate the system's roots do not trust: give the alliance's CA with --cacert (or --keys)",
				target, flagName)
		}
		return fmt.Errorf("%s: %s (%s) presents a certificate that is not signed by the CA %s gave (another alliance's keys?)",
			rm.caFlag, target, flagName, rm.caFlag)
	case errors.As(err, &badHost):
		return fmt.Errorf("%s: %s: its certificate is not valid for this name (%v): use a name or address its certificate has (keys --host)",
			flagName, target, badHost.Error())
	case strings.Contains(msg, "certificate required"):
		return fmt.Errorf("--cert: %s (%s) wants a client certificate of the alliance's CA: give --cert and --key (or --keys)", target, flagName)
	case strings.Contains(msg, "unknown certificate authority") || strings.Contains(msg, "bad certificate"):
		return fmt.Errorf("%s: %s (%s) refused alliancectl's certificate: it is not signed by the alliance's CA", orDefault(rm.certFlag, "--cert"), target, flagName)
	case strings.Contains(msg, "server gave HTTP response to HTTPS client"):
		return fmt.Errorf("%s: %s speaks plain HTTP: use http://", flagName, target)
	case strings.Contains(msg, "HTTP request to an HTTPS server") || strings.Contains(msg, "malformed HTTP response") ||
		strings.HasPrefix(target, "http://") && (strings.Contains(msg, "EOF") || strings.Contains(msg, "connection reset")):
		return fmt.Errorf("%s: %s does not answer plain HTTP (does it speak TLS? use https://): %v", flagName, target, err)
	case strings.Contains(msg, "connection refused") || strings.Contains(msg, "no such host") ||
		strings.Contains(msg, "Client.Timeout") || errors.Is(err, os.ErrDeadlineExceeded) || strings.Contains(msg, "i/o timeout") ||
		strings.Contains(msg, "network is unreachable") || strings.Contains(msg, "no route to host"):
		return fmt.Errorf("%s: %s is unreachable: %v", flagName, target, err)
	}
	return fmt.Errorf("%s: %s: %w", flagName, target, err)
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}
