package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"flightalliance/internal/airlinecmd"
)

// plan decides names, sellers and ports, generates the data, and returns the state to start.
func plan(ctx context.Context, cfg upConfig) (*State, error) {
	searchAddr := cfg.Search
	taken := map[string]bool{}
	if strings.HasSuffix(searchAddr, ":0") {
		a, err := freeAddrs(1, nil)
		if err != nil {
			return nil, err
		}
		searchAddr = a[0]
	} else if err := checkFree(searchAddr); err != nil {
		return nil, fmt.Errorf("--search: %w", err)
	}
	taken[searchAddr] = true
	perMachine := 3
	if cfg.Proxies {
		perMachine = 6 // and the proxies' addresses
	}
	addrs, err := freeAddrs(perMachine*cfg.Machines*cfg.Alliances+2, taken)
	if err != nil {
		return nil, err
	}
	apiAddr, searchProxy, addrs := addrs[0], addrs[1], addrs[2:]
	s := &State{Dir: cfg.Dir, Bin: cfg.Bin, Data: cfg.Data, Created: time.Now(), LogLevel: cfg.LogLevel, Extra: cfg.Airline}
	if !cfg.Insecure {
		s.Keys = cfg.Keys
	}
	s.Search = s.scheme() + searchAddr
	s.Procs = append(s.Procs, Proc{
		Name: "search", Kind: kindSearch, Ports: Ports{Listen: searchAddr}, TLS: s.secure(),
		Args: append([]string{filepath.Join(cfg.Bin, "search"), "--listen", searchAddr, "--log-level", cfg.LogLevel},
			s.searchSecurity()...),
		Log: filepath.Join(cfg.Dir, "logs", "search.log"),
	})
	if cfg.Proxies {
		// The machines reach the search server through a proxy too, so that a partitioned
		// machine cannot reach it either; clients (and alliancectl) use it directly.
		s.Procs[0].Advertise = &Ports{Listen: searchProxy}
		exe, err := selfBinary(cfg.Dir)
		if err != nil {
			return nil, err
		}
		s.Procs = append(s.Procs, Proc{
			Name: proxydName, Kind: kindProxyd, Ports: Ports{Listen: apiAddr},
			Args: []string{exe, "proxyd", "--dir", cfg.Dir},
			Log:  filepath.Join(cfg.Dir, "logs", proxydName+".log"),
		})
	}
	n := 0
	for i := range cfg.Alliances {
		a := Alliance{Name: allianceName(i)}
		var machines []Proc
		var peers, zones []string
		for j := range cfg.Machines {
			n++
			at := addrs[perMachine*(n-1):]
			m := Proc{Name: "m" + strconv.Itoa(n), Kind: kindAirline, Alliance: a.Name, TLS: s.secure(),
				Ports: Ports{Listen: at[0], Peer: at[1], Client: at[2]}}
			if cfg.Proxies {
				m.Advertise = &Ports{Listen: at[3], Peer: at[4], Client: at[5]}
			}
			for k := range cfg.PerMach {
				m.Sellers = append(m.Sellers, sellerCode(i, j*cfg.PerMach+k, cfg.Alliances))
			}
			if cfg.Zones > 0 {
				m.Zone = "z" + strconv.Itoa(j%cfg.Zones+1)
				zones = append(zones, m.Name+"="+m.Zone)
			}
			peers = append(peers, m.Name+"="+s.scheme()+m.advertised().Peer)
			machines = append(machines, m)
		}
		a.Peers = strings.Join(peers, ",")
		for _, m := range machines {
			cmd := airline(s, m)
			cmd.Peers, cmd.PeerZones, cmd.Replicas = a.Peers, zones, cfg.Replicas
			m.Args = cmd.Args()
			m.Log = filepath.Join(cfg.Dir, "logs", m.Name+".log")
			s.Procs = append(s.Procs, m)
		}
		s.Alliances = append(s.Alliances, a)
	}
	if err := generate(ctx, cfg.Bin, cfg.Data, allSellers(s)); err != nil {
		return nil, err
	}
	qs, err := routes(cfg.Data, s.machines(s.Alliances[0].Name)[0].Sellers)
	if err != nil {
		return nil, err
	}
	s.Query = showcase(qs, cfg.Data.From)
	return s, nil
}

// airline is machine m's command line without --peers or --join: up and add both build it
// here (with airlinecmd, as the process tests do), so a machine added later runs as securely as
// the first ones.
func airline(s *State, m Proc) airlinecmd.Machine {
	a := airlinecmd.Machine{Binary: filepath.Join(s.Bin, "airline"), Name: m.Name, Alliance: m.Alliance,
		Listen: m.Ports.Listen, Peer: m.Ports.Peer, Client: m.Ports.Client, Scheme: s.scheme(),
		Search: []string{s.searchForMachines()}, DataDir: filepath.Join(s.Dir, "etcd", m.Name), LogLevel: s.LogLevel,
		Zone: m.Zone, Extra: s.Extra}
	for _, code := range m.Sellers {
		a.Sellers = append(a.Sellers, airlinecmd.Seller{Code: code, File: s.Data.csvPath(code)})
	}
	if p := m.Advertise; p != nil {
		a.Advertise = &airlinecmd.Addrs{Listen: p.Listen, Peer: p.Peer, Client: p.Client}
	}
	if s.secure() {
		f := s.keys().serverFiles(m.Name)
		a.TokenFile, a.TLS = s.keys().token(m.Alliance), &f
	}
	return a
}

// airlineArgs is airline's command line, as a list of arguments.
func airlineArgs(s *State, m Proc) []string { return airline(s, m).Args() }

func allSellers(s *State) []string {
	var out []string
	for _, m := range s.machines("") {
		out = append(out, m.Sellers...)
	}
	return out
}
