package search

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// fakeMachine is an airline server as the console sees it: GET /status and GET /healthz.
type fakeMachine struct {
	name       string
	srv        *httptest.Server
	statusHits atomic.Int64
	mu         sync.Mutex
	doc        any  // the /status answer
	hang       bool // /healthz and /status answer only when the caller gives up, like a paused process
}

func startFakeMachine(t *testing.T, name string) *fakeMachine {
	t.Helper()
	m := &fakeMachine{name: name}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /status", func(w http.ResponseWriter, r *http.Request) {
		m.statusHits.Add(1)
		m.mu.Lock()
		doc, hang := m.doc, m.hang
		m.mu.Unlock()
		if hang {
			<-r.Context().Done()
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(doc)
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		m.mu.Lock()
		hang := m.hang
		m.mu.Unlock()
		if hang {
			<-r.Context().Done()
			return
		}
		_, _ = w.Write([]byte(`{"status":"ok","name":"` + name + `","registered":true}`))
	})
	m.srv = httptest.NewServer(mux)
	t.Cleanup(m.srv.Close)
	return m
}

func (m *fakeMachine) URL() string { return m.srv.URL }

func (m *fakeMachine) URI() string { return m.srv.URL + "/Services/SellerService" }

func (m *fakeMachine) set(doc any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.doc = doc
}

func (m *fakeMachine) pause() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.hang = true
}

// kill closes the machine's listener: connections are refused from now on.
func (m *fakeMachine) kill() {
	m.srv.CloseClientConnections()
	m.srv.Listener.Close()
}
