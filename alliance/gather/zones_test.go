package gather

import (
	"slices"
	"testing"
)

func TestSpreadZonesAsksAnotherZoneFirst(t *testing.T) {
	zones := map[string]string{"a1": "A", "a2": "A", "b1": "B", "b2": "B", "c1": "C"}
	zoneOf := func(n string) string { return zones[n] }
	for _, tc := range []struct {
		first, names, want []string
	}{
		// The primary is in A: B, then C, then the second machine of A.
		{[]string{"a1"}, []string{"a2", "b1", "c1"}, []string{"b1", "c1", "a2"}},
		{[]string{"b2"}, []string{"a1", "a2", "b1", "c1"}, []string{"a1", "c1", "a2", "b1"}},
		// Every zone reached already: names' order.
		{[]string{"a1", "b1", "c1"}, []string{"b2", "a2"}, []string{"b2", "a2"}},
		{nil, nil, []string{}},
	} {
		if got := SpreadZones(tc.first, tc.names, zoneOf); !slices.Equal(got, tc.want) {
			t.Errorf("SpreadZones(%v, %v) = %v, want %v", tc.first, tc.names, got, tc.want)
		}
	}
}
