package search

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"flightalliance/search/console"
)

// registerWith registers alliance name with the test search server at uri, with its alternates.
func registerWith(t *testing.T, ts *testServer, name, uri string, alternates ...string) {
	t.Helper()
	body, _ := json.Marshal(RegisterBody{URI: uri, Alternates: alternates})
	if code, b := do(t, http.MethodPut, ts.URL+"/Services/FlightsSearchReg/Register/"+name, string(body)); code != http.StatusOK {
		t.Fatalf("register %s: %d %s", name, code, b)
	}
}

func livePicture(t *testing.T, ts *testServer) LivePicture {
	t.Helper()
	code, b := do(t, http.MethodGet, ts.URL+console.AlliancesPath, "")
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", console.AlliancesPath, code, b)
	}
	var p LivePicture
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatalf("GET %s: %v in %s", console.AlliancesPath, err, b)
	}
	return p
}

// waitPicture polls the live picture until cond holds of alliance name (past the cache).
func waitPicture(t *testing.T, ts *testServer, name, what string, cond func(AllianceLive) bool) AllianceLive {
	t.Helper()
	var last AllianceLive
	eventually(t, 5*time.Second, what, func() bool {
		for _, a := range livePicture(t, ts).Alliances {
			if a.Name == name {
				last = a
				return cond(a)
			}
		}
		return false
	})
	return last
}

func machineOf(a AllianceLive, name string) (LiveMachine, bool) {
	for _, m := range a.Machines {
		if m.Name == name {
			return m, true
		}
	}
	return LiveMachine{}, false
}

func stateOf(a AllianceLive, name string) string {
	m, ok := machineOf(a, name)
	if !ok {
		return "absent"
	}
	return m.State
}
