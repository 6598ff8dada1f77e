package airlinecmd

import (
	"strconv"
	"strings"

	"flightalliance/internal/pki"
)

// Machine is one airline server of an alliance, as its command line states it.
type Machine struct {
	Binary   string // the airline binary, the command line's first word ("": arguments only)
	Name     string
	Alliance string
	Sellers  []Seller
	// Listen, Peer and Client are where it listens: SOAP, etcd peers, etcd clients.
	Listen, Peer, Client string
	// Advertise, when set, is where the others reach it instead (its proxies, in a run whose
	// network can be cut); Scheme ("http://", "https://") goes before its SOAP address.
	Advertise *Addrs
	Scheme    string
	Search    []string // the search servers it registers with, each a --search
	DataDir   string   // the embedded etcd member's data
	LogLevel  string   // "": the server's default
	Zone      string
	TokenFile string     // the alliance's token, in a secure alliance
	TLS       *pki.Files // its certificate, key and the CA, in a secure alliance
	// Peers names the first members ("name=peer-url,..."), Join the members a machine added
	// later joins through; one of the two.
	Peers, Join string
	PeerZones   []string // "name=zone" of every machine, when the alliance has zones
	Replicas    int      // 0: the server's default
	// Extra flags come last, so that an explicit flag there overrides one above.
	Extra []string
}

// Seller is a seller the machine brings, with its flights' file.
type Seller struct{ Code, File string }

// Addrs are a machine's three addresses.
type Addrs struct{ Listen, Peer, Client string }

// Args is the command line, Binary first when set.
func (m Machine) Args() []string {
	var args []string
	if m.Binary != "" {
		args = append(args, m.Binary)
	}
	args = append(args, "--name", m.Name, "--alliance", m.Alliance)
	for _, s := range m.Sellers {
		args = append(args, "--seller", s.Code+"="+s.File)
	}
	args = append(args, "--listen", m.Listen, "--peer-listen", m.Peer, "--client-listen", m.Client)
	for _, s := range m.Search {
		args = append(args, "--search", s)
	}
	args = append(args, "--data-dir", m.DataDir)
	if m.LogLevel != "" {
		args = append(args, "--log-level", m.LogLevel)
	}
	if a := m.Advertise; a != nil {
		args = append(args, "--advertise-url", m.Scheme+a.Listen, "--peer-advertise", a.Peer, "--client-advertise", a.Client)
	}
	if m.Zone != "" {
		args = append(args, "--zone", m.Zone)
	}
	if m.TokenFile != "" {
		args = append(args, "--token-file", m.TokenFile)
	}
	if f := m.TLS; f != nil {
		args = append(args, TLSArgs(*f)...)
	}
	if m.Peers != "" {
		args = append(args, "--peers", m.Peers)
	}
	if m.Join != "" {
		args = append(args, "--join", m.Join)
	}
	if len(m.PeerZones) > 0 {
		args = append(args, "--peer-zones", strings.Join(m.PeerZones, ","))
	}
	if m.Replicas > 0 {
		args = append(args, "--replicas", strconv.Itoa(m.Replicas))
	}
	return append(args, m.Extra...)
}

// TLSArgs are a server's --tls-* flags (the airline's and the search server's are the same).
func TLSArgs(f pki.Files) []string {
	return []string{"--tls-cert", f.CertFile, "--tls-key", f.KeyFile, "--tls-ca", f.CAFile}
}
