package main

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
)

// The proxy daemon's control API: what alliancectl's commands send and read (proxyctl.go is
// the client side), served beside toxiproxy's own API.

// machineNet is what the proxy daemon says about one process behind proxies, a machine or
// the search server (GET /ctl/machines).
type machineNet struct {
	Name        string     `json:"name"`
	Partitioned bool       `json:"partitioned"`
	Proxies     []proxyNet `json:"proxies"`
}

// proxyNet is one of a machine's proxies.
type proxyNet struct {
	Name     string   `json:"name"`     // toxiproxy's name, e.g. m2-peer
	Kind     string   `json:"kind"`     // http, peer or client
	Listen   string   `json:"listen"`   // the advertised address (the gate)
	Upstream string   `json:"upstream"` // the machine's own listening address
	Toxics   []string `json:"toxics"`   // names of the toxics on it
}

// proxySpec asks the daemon for a machine's proxies (PUT /ctl/machines/{name}).
type proxySpec struct {
	Advertise Ports `json:"advertise"` // where the gates listen
	Upstream  Ports `json:"upstream"`  // the machine's listening addresses
}

// routes is the control API: /ctl/... for alliancectl, and toxiproxy's own HTTP API for any
// other toxic (latency, bandwidth, ...: `toxiproxy-cli -h ADDR`).
func (d *proxyDaemon) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /ctl/machines", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, d.status())
	})
	mux.HandleFunc("PUT /ctl/machines/{name}", func(w http.ResponseWriter, r *http.Request) {
		var spec proxySpec
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&spec); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "body: " + err.Error()})
			return
		}
		if err := d.add(r.PathValue("name"), spec); err != nil {
			writeJSON(w, http.StatusConflict, map[string]string{"error": err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, d.status())
	})
	mux.HandleFunc("POST /ctl/partition/{name}", func(w http.ResponseWriter, r *http.Request) {
		if err := d.partition(r.PathValue("name")); err != nil {
			code := http.StatusInternalServerError
			if errors.Is(err, errNoProxies) {
				code = http.StatusNotFound
			}
			writeJSON(w, code, map[string]string{"error": err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, d.status())
	})
	mux.HandleFunc("POST /ctl/heal", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string][]string{"healed": d.heal(r.Context())})
	})
	mux.Handle("/", d.tox.Routes())
	return mux
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
