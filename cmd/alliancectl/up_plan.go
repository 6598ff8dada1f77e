package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"
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
			m.Args = append(airlineArgs(s, m), "--peers", a.Peers)
			if len(zones) > 0 {
				m.Args = append(m.Args, "--peer-zones", strings.Join(zones, ","))
			}
			if cfg.Replicas > 0 {
				m.Args = append(m.Args, "--replicas", strconv.Itoa(cfg.Replicas))
			}
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

// airlineArgs is a machine's command line without --peers or --join: up and add both build it
// here, so a machine added later runs as securely as the first ones.
func airlineArgs(s *State, m Proc) []string {
	args := []string{filepath.Join(s.Bin, "airline"), "--name", m.Name, "--alliance", m.Alliance}
	for _, code := range m.Sellers {
		args = append(args, "--seller", code+"="+s.Data.csvPath(code))
	}
	args = append(args, "--listen", m.Ports.Listen, "--peer-listen", m.Ports.Peer, "--client-listen", m.Ports.Client,
		"--search", s.searchForMachines(), "--data-dir", filepath.Join(s.Dir, "etcd", m.Name), "--log-level", s.LogLevel)
	if a := m.Advertise; a != nil {
		args = append(args, "--advertise-url", s.scheme()+a.Listen, "--peer-advertise", a.Peer, "--client-advertise", a.Client)
	}
	if m.Zone != "" {
		args = append(args, "--zone", m.Zone)
	}
	args = append(args, s.airlineSecurity(m)...)
	return append(args, s.Extra...)
}

func allSellers(s *State) []string {
	var out []string
	for _, m := range s.machines("") {
		out = append(out, m.Sellers...)
	}
	return out
}
