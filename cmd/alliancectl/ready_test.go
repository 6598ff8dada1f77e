package main

import (
	"strings"
	"testing"
)

func TestCheckView(t *testing.T) {
	e := func(name string, p, b []string) machineEntry {
		return machineEntry{Name: name, Primaries: p, Backups: b}
	}
	l := func(s ...string) []string { return s }
	machines, sellers := l("m1", "m2"), l("LY", "UA")
	for _, c := range []struct {
		name     string
		view     []machineEntry
		machs    []string
		wantErr  string
		replicas int // 0: 2
	}{
		{"settled", []machineEntry{e("m2", l("UA"), l("LY")), e("m1", l("LY"), l("UA"))}, machines, "", 0},
		{"a machine missing", []machineEntry{e("m1", l("LY", "UA"), nil)}, machines, "machines [m1], want [m1 m2]", 0},
		{"a stranger", []machineEntry{e("m1", l("LY"), l("UA")), e("m2", l("UA"), l("LY")), e("m3", nil, nil)}, machines, "machines", 0},
		{"seller unplaced", []machineEntry{e("m1", l("LY"), nil), e("m2", nil, l("LY"))}, machines, "seller UA has primaries []", 0},
		{"two primaries", []machineEntry{e("m1", l("LY", "UA"), l("UA")), e("m2", l("UA"), l("LY"))}, machines, "seller UA has primaries [m1 m2]", 0},
		{"no backup", []machineEntry{e("m1", l("LY"), nil), e("m2", l("UA"), l("LY"))}, machines, "seller UA has backups [], want 1", 0},
		{"backup on its primary", []machineEntry{e("m1", l("LY"), l("LY")), e("m2", l("UA"), l("UA"))}, machines, "primary and backup on m1", 0},
		{"one machine, no backup wanted", []machineEntry{e("m1", l("LY", "UA"), nil)}, l("m1"), "", 0},
		{"three copies on three machines", []machineEntry{e("m1", l("LY"), l("UA")), e("m2", l("UA"), l("LY")), e("m3", nil, l("LY", "UA"))},
			l("m1", "m2", "m3"), "", 3},
		{"three copies wanted, two held", []machineEntry{e("m1", l("LY"), l("UA")), e("m2", l("UA"), l("LY")), e("m3", nil, l("LY"))},
			l("m1", "m2", "m3"), "seller UA has backups [m1], want 2", 3},
		{"three copies wanted, two machines", []machineEntry{e("m2", l("UA"), l("LY")), e("m1", l("LY"), l("UA"))}, machines, "", 3},
	} {
		err := checkView(c.view, c.machs, sellers, c.replicas)
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("%s: %v, want settled", c.name, err)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.wantErr)
		}
	}
}
