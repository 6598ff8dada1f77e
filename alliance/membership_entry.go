package alliance

import (
	"encoding/json"
	"fmt"

	"flightalliance/alliance/placement"
)

// machineEntry is the value of /alliances/<alliance>/machines/<machine> (docs/api.md): who the machine
// is, where it answers, and its committed assignment. Leaving announces a graceful leave.
type machineEntry struct {
	Name      string            `json:"name"`
	URL       string            `json:"url"`
	Zone      string            `json:"zone,omitempty"`
	Primaries []string          `json:"primaries"`
	Backups   []string          `json:"backups"`
	Versions  map[string]string `json:"versions,omitempty"`
	Leaving   bool              `json:"leaving,omitempty"`
	Epoch     int64             `json:"epoch,omitempty"` // bumped to ask every machine for a new round
	// Brings lists, while the machine is joining, the sellers of its own files: it can answer
	// for them before the round that places them commits.
	Brings []string `json:"brings,omitempty"`
}

// zone is the machine's zone; an entry without one (an older machine) is a zone of its own.
func (e machineEntry) zone() string {
	if e.Zone == "" {
		return e.Name
	}
	return e.Zone
}

func decodeMachineEntry(name string, value []byte) (machineEntry, error) {
	var e machineEntry
	if err := json.Unmarshal(value, &e); err != nil {
		return machineEntry{}, fmt.Errorf("machine entry %s: %w", name, err)
	}
	if e.Name != name {
		return machineEntry{}, fmt.Errorf("machine entry %s: name field is %q", name, e.Name)
	}
	return e, nil
}

// holding is what a machine publishes on entering a round: the planner's view of that machine.
type holding struct {
	Name      string            `json:"name"`
	Zone      string            `json:"zone,omitempty"`
	Primaries []string          `json:"primaries"`
	Backups   []string          `json:"backups"`
	Brings    []string          `json:"brings,omitempty"`
	Joining   bool              `json:"joining,omitempty"`
	Leaving   bool              `json:"leaving,omitempty"`
	Versions  map[string]string `json:"versions,omitempty"`
}

func (h holding) machine() placement.Machine {
	return placement.Machine{
		Name:      h.Name,
		Zone:      h.Zone,
		Primaries: h.Primaries,
		Backups:   h.Backups,
		Brings:    h.Brings,
		Joining:   h.Joining,
		Leaving:   h.Leaving,
	}
}

// snapshotOf decodes the participants' published holdings into the planner's input. A value that
// does not decode, or that names another machine, fails the round: planning from a guess could
// make two machines disagree.
func snapshotOf(values map[string][]byte) (placement.Snapshot, map[string]holding, error) {
	var snap placement.Snapshot
	byName := make(map[string]holding, len(values))
	for name, v := range values {
		var h holding
		if err := json.Unmarshal(v, &h); err != nil {
			return placement.Snapshot{}, nil, fmt.Errorf("holding of %s: %w", name, err)
		}
		if h.Name != name {
			return placement.Snapshot{}, nil, fmt.Errorf("holding of %s names %q", name, h.Name)
		}
		byName[name] = h
		snap.Machines = append(snap.Machines, h.machine())
	}
	return snap, byName, nil
}
