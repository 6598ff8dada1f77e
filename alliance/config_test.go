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
