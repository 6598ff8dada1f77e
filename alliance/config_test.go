package alliance

import (
	"strings"
	"testing"
	"time"
)

func TestNormalizeFillsDefaults(t *testing.T) {
	c, err := Config{Name: "m1", Alliance: "star", Listen: "127.0.0.1:8101"}.normalize()
	if err != nil {
		t.Fatal(err)
	}
	if c.AdvertiseURL != "http://127.0.0.1:8101" || c.SessionTTL != 3*time.Second || c.HedgeAfter != 150*time.Millisecond ||
		c.CacheSize != 4096 || c.Logger == nil {
		t.Errorf("defaults not filled: %+v", c)
	}
}

func TestNormalizeReportsEveryProblemInFieldOrder(t *testing.T) {
	cfg := Config{Name: "m1", Alliance: "star", Listen: "127.0.0.1:8101",
		SessionTTL: -1, CallTimeout: -2, LeaveTimeout: -3, HedgeAfter: -4, MinConnection: -5}
	want := "session-ttl: -1ns is negative\ncall-timeout: -2ns is negative\nleave-timeout: -3ns is negative\n" +
		"hedge-after: -4ns is negative\nmin-connection: -5ns is negative"
	for range 20 { // a map would give another order now and then
		_, err := cfg.normalize()
		if err == nil || err.Error() != want {
			t.Fatalf("normalize: %v\nwant:\n%s", err, want)
		}
	}
	if _, err := (Config{Name: "bad name", Alliance: "star"}).normalize(); err == nil ||
		!strings.HasPrefix(err.Error(), `name: "bad name"`) || !strings.Contains(err.Error(), "listen: required") {
		t.Errorf("normalize of a bad name without listen: %v", err)
	}
}

func TestNormalizeZoneAndReplicas(t *testing.T) {
	c, err := Config{Name: "m1", Alliance: "star", Listen: "127.0.0.1:8101"}.normalize()
	if err != nil || c.Zone != "m1" || c.Replicas != 0 {
		t.Fatalf("defaults: zone %q replicas %d, %v; want the machine's name and 0 (adopt the alliance's)", c.Zone, c.Replicas, err)
	}
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Zone: "eu west"}, `zone: "eu west" is not a zone name`},
		{Config{Replicas: 6}, "replicas: 6, want 1 to 5"},
		{Config{Replicas: -1}, "replicas: -1, want 1 to 5"},
	} {
		tc.cfg.Name, tc.cfg.Alliance, tc.cfg.Listen = "m1", "star", "127.0.0.1:8101"
		if _, err := tc.cfg.normalize(); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("normalize(%+v) = %v, want %q", tc.cfg, err, tc.want)
		}
	}
}

// TestNormalizeRefusesAnAllianceNoSearchServerRegisters: a machine name may have a '.', an
// alliance name may not — the search server could never register it, and a booking's id ends
// its alliance at the first '.'.
func TestNormalizeRefusesAnAllianceNoSearchServerRegisters(t *testing.T) {
	if _, err := (Config{Name: "m1.east", Alliance: "star", Listen: "127.0.0.1:8101"}).normalize(); err != nil {
		t.Errorf("a machine name with a '.': %v", err)
	}
	_, err := Config{Name: "m1", Alliance: "star.east", Listen: "127.0.0.1:8101"}.normalize()
	if err == nil || !strings.HasPrefix(err.Error(), `alliance: "star.east"`) {
		t.Errorf("an alliance name with a '.': %v, want an error naming the field", err)
	}
}
