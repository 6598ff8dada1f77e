package airlinecmd

import (
	"slices"
	"strings"
	"testing"

	"flightalliance/internal/pki"
)

// An open machine's command line: its addresses, sellers and members, no security flag, no
// advertised address; --peers and --join only when set; the extra flags last.
func TestOpenMachine(t *testing.T) {
	m := Machine{Binary: "/bin/airline", Name: "m1", Alliance: "star",
		Sellers: []Seller{{"LY", "/d/LY.csv"}, {"UA", "/d/UA.csv"}},
		Listen:  "127.0.0.1:1", Peer: "127.0.0.1:2", Client: "127.0.0.1:3", Scheme: "http://",
		Search: []string{"http://127.0.0.1:9"}, DataDir: "/var/m1", LogLevel: "info",
		Peers: "m1=http://127.0.0.1:2", Extra: []string{"--log-level", "debug"}}
	want := "/bin/airline --name m1 --alliance star --seller LY=/d/LY.csv --seller UA=/d/UA.csv " +
		"--listen 127.0.0.1:1 --peer-listen 127.0.0.1:2 --client-listen 127.0.0.1:3 --search http://127.0.0.1:9 " +
		"--data-dir /var/m1 --log-level info --peers m1=http://127.0.0.1:2 --log-level debug"
	if got := strings.Join(m.Args(), " "); got != want {
		t.Errorf("args:\n%s\nwant\n%s", got, want)
	}
	m.Binary, m.Peers, m.Join, m.Search = "", "", "http://127.0.0.1:3", nil
	args := m.Args()
	if args[0] != "--name" || slices.Contains(args, "--peers") || slices.Contains(args, "--search") ||
		!strings.Contains(strings.Join(args, " "), "--join http://127.0.0.1:3") {
		t.Errorf("without a binary, joining, no search server: %v", args)
	}
}

// A secure machine behind proxies: its token file, its certificate, https advertised, its zone
// among the alliance's, a replica count.
func TestSecureMachineBehindProxies(t *testing.T) {
	m := Machine{Name: "m2", Alliance: "star", Listen: "127.0.0.1:1", Peer: "127.0.0.1:2", Client: "127.0.0.1:3",
		Advertise: &Addrs{Listen: "127.0.0.1:4", Peer: "127.0.0.1:5", Client: "127.0.0.1:6"}, Scheme: "https://",
		DataDir: "/var/m2", Zone: "z1", PeerZones: []string{"m1=z1", "m2=z2"}, Replicas: 3, TokenFile: "/k/star.token",
		TLS: &pki.Files{CertFile: "/k/m2.crt", KeyFile: "/k/m2.key", CAFile: "/k/ca.crt"}}
	line := strings.Join(m.Args(), " ")
	for _, want := range []string{"--advertise-url https://127.0.0.1:4 --peer-advertise 127.0.0.1:5 --client-advertise 127.0.0.1:6",
		"--zone z1", "--token-file /k/star.token", "--tls-cert /k/m2.crt --tls-key /k/m2.key --tls-ca /k/ca.crt",
		"--peer-zones m1=z1,m2=z2", "--replicas 3"} {
		if !strings.Contains(line, want) {
			t.Errorf("args lack %q: %s", want, line)
		}
	}
	if strings.Contains(line, "--log-level") {
		t.Errorf("no log level given, yet: %s", line)
	}
}
