package alliance

import (
	"testing"
	"time"
)

// TestRegistrar: the delegate registers at once when it starts acting, again every `every` and
// at once when its alternates change; never while it is not acting or is leaving; and at once
// again when it acts anew.
func TestRegistrar(t *testing.T) {
	r := registrar{every: 3 * time.Second}
	alt := []string{"https://m2/seller"}
	steps := []struct {
		name                  string
		at                    time.Duration
		acting, leaving       bool
		alternates            []string
		roleChanged, register bool
	}{
		{"not the delegate", 0, false, false, alt, false, false},
		{"becomes the delegate", time.Second, true, false, alt, true, true},
		{"a second later", 2 * time.Second, true, false, alt, false, false},
		{"every three seconds", 4 * time.Second, true, false, alt, false, true},
		{"alternates changed", 5 * time.Second, true, false, []string{"https://m3/seller"}, false, true},
		{"leaving", 9 * time.Second, true, true, alt, false, false},
		{"not the delegate any more", 10 * time.Second, false, false, alt, true, false},
		{"the delegate again", 10*time.Second + time.Millisecond, true, false, alt, true, true},
	}
	for _, s := range steps {
		changed, register := r.step(s.acting, s.leaving, s.alternates, epoch.Add(s.at))
		if changed != s.roleChanged || register != s.register {
			t.Errorf("%s: role changed %v, register %v; want %v, %v", s.name, changed, register, s.roleChanged, s.register)
		}
	}
}
