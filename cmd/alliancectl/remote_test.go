package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

// openRemote parses args as a command's remote flags and opens them.
func openRemote(args ...string) (*remote, error) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	rf := addRemoteFlags(fs, true)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	return rf.open()
}

// makeKeys writes a keys directory (CA, m1, search, alliancectl) and returns it.
func makeKeys(t *testing.T) keyDir {
	t.Helper()
	k := keyDir(filepath.Join(t.TempDir(), "keys"))
	if _, err := ensureKeys(keySpec{Dir: k, Alliances: []string{"star"}, Machines: machineNames(1), Hosts: defaultHosts}); err != nil {
		t.Fatal(err)
	}
	return k
}

func TestRemoteFlagsUsage(t *testing.T) {
	k := makeKeys(t)
	ep := "--endpoints=https://127.0.0.1:2379"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{ep, "--search=https://127.0.0.1:8443"}, "--endpoints, --search: give one of them, not both"},
		{[]string{"--cacert=" + k.caCert()}, "go with --endpoints or --search"},
		{[]string{ep, "--keys=" + string(k), "--cacert=" + k.caCert()}, "--keys: give it or --cacert/--cert/--key, not both"},
		{[]string{ep, "--cert=" + k.cert(ctlName)}, "--cert, --key: give both or neither"},
		{[]string{ep, "--keys=" + t.TempDir()}, "has no ca.crt"},
		{[]string{ep, "--cacert=" + k.key(ctlName)}, "--cacert: " + k.key(ctlName) + " holds no PEM certificate"},
		{[]string{ep, "--cacert=/nonexistent/ca.crt"}, "--cacert: open /nonexistent/ca.crt"},
		{[]string{ep, "--cert=" + k.cert(ctlName), "--key=" + k.key("m1")}, "--cert, --key: " + k.cert(ctlName)},
		{[]string{"--endpoints=127.0.0.1:2379"}, `--endpoints: "127.0.0.1:2379"`},
		{[]string{"--endpoints=https://127.0.0.1:2379,"}, `--endpoints: "" is not an http:// or https:// URL`},
		{[]string{"--search=https://search.example"}, `--search: "https://search.example" has no host:port`},
	} {
		_, err := openRemote(c.args...)
		var ue usageError
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &ue) {
			t.Errorf("%v: %v, want a usage error with %q", c.args, err, c.want)
		}
	}
	rm, err := openRemote("--endpoints=https://m1.star.svc:2379/, http://10.0.0.5:2379", "--keys="+string(k))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rm.endpoints, " ") != "https://m1.star.svc:2379 http://10.0.0.5:2379" || rm.tls.RootCAs == nil || len(rm.tls.Certificates) != 1 {
		t.Errorf("opened %+v", rm)
	}
}

// A server of the alliance's CA that wants a client certificate of it, asked by alliancectl
// with every wrong combination of files: each error names the flag to fix.
func TestRemoteErrorsNameTheFlag(t *testing.T) {
	k, other := makeKeys(t), makeKeys(t)
	version := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"etcdserver":"3.7.3","etcdcluster":"3.7.0"}`))
	})
	serverTLS, err := k.serverFiles("m1").Server(true)
	if err != nil {
		t.Fatal(err)
	}
	secure := httptest.NewUnstartedServer(version)
	secure.TLS = serverTLS
	secure.Config.ErrorLog = log.New(io.Discard, "", 0)
	secure.StartTLS()
	defer secure.Close()
	plain := httptest.NewServer(version)
	defer plain.Close()
	gone := httptest.NewServer(version)
	gone.Close()
	secureURL, plainURL, goneURL := secure.URL, plain.URL, gone.URL
	httpToTLS := strings.Replace(secureURL, "https://", "http://", 1)
	tlsToHTTP := strings.Replace(plainURL, "http://", "https://", 1)

	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"right keys", []string{"--endpoints=" + secureURL, "--keys=" + string(k)}, ""},
		{"another alliance's keys", []string{"--endpoints=" + secureURL, "--keys=" + string(other)},
			"--keys: " + secureURL + " (--endpoints) presents a certificate that is not signed by the CA --keys gave"},
		{"another CA", []string{"--endpoints=" + secureURL, "--cacert=" + other.caCert(), "--cert=" + k.cert(ctlName), "--key=" + k.key(ctlName)},
			"--cacert: " + secureURL + " (--endpoints) presents a certificate that is not signed by the CA --cacert gave"},
		{"no CA", []string{"--endpoints=" + secureURL}, "--cacert: " + secureURL + " (--endpoints) presents a certificate the system's roots do not trust"},
		{"no client certificate", []string{"--endpoints=" + secureURL, "--cacert=" + k.caCert()}, "--cert: " + secureURL + " (--endpoints) wants a client certificate"},
		{"a client certificate of another CA", []string{"--endpoints=" + secureURL, "--cacert=" + k.caCert(), "--cert=" + other.cert(ctlName), "--key=" + other.key(ctlName)},
			"--cert: " + secureURL + " (--endpoints) refused alliancectl's certificate"},
		{"http:// to TLS", []string{"--endpoints=" + httpToTLS, "--keys=" + string(k)}, "--endpoints: " + httpToTLS + " does not answer plain HTTP (does it speak TLS? use https://)"},
		{"https:// to plain", []string{"--endpoints=" + tlsToHTTP, "--keys=" + string(k)}, "--endpoints: " + tlsToHTTP + " speaks plain HTTP: use http://"},
		{"nothing listens", []string{"--endpoints=" + goneURL}, "--endpoints: " + goneURL + " is unreachable"},
	} {
		rm, err := openRemote(c.args...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		ok, failed, err := rm.reachEndpoints(context.Background(), "--endpoints", rm.endpoints)
		if c.want == "" {
			if err != nil || len(ok) != 1 || len(failed) != 0 {
				t.Errorf("%s: %v, %v", c.name, err, failed)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant %q", c.name, err, c.want)
		}
	}

	// Some endpoints answering is enough; the others are named.
	rm, err := openRemote("--endpoints="+goneURL+","+secureURL, "--keys="+string(k))
	if err != nil {
		t.Fatal(err)
	}
	ok, failed, err := rm.reachEndpoints(context.Background(), "--endpoints", rm.endpoints)
	if err != nil || len(ok) != 1 || ok[0] != secureURL || len(failed) != 1 || !strings.Contains(failed[0].Error(), goneURL) {
		t.Errorf("one of two endpoints answering: %v, %v, %v", ok, failed, err)
	}
}
