package daemonconfig

import "testing"

// TestPresetSetsOnlyWhatNoSourceGave: a preset replaces a default, never a value the command
// line, the environment or the file gave, and the value preset says what chose it.
func TestPresetSetsOnlyWhatNoSourceGave(t *testing.T) {
	f := newTestFlags()
	origins, err := Parse(f.fs, []string{"--peer-listen", "10.0.0.1:2381"}, sources("FA_AIRLINE_FORCE_NEW_CLUSTER=false"))
	if err != nil {
		t.Fatal(err)
	}
	err = Preset(f.fs, origins, map[string]string{"peer-listen": "10.9.9.9:1", "cache-size": "7", "force-new-cluster": "true"}, "--network wan")
	if err != nil {
		t.Fatal(err)
	}
	if *f.peerListen != "10.0.0.1:2381" || *f.force || *f.cacheSize != 7 {
		t.Errorf("peer-listen %q, force-new-cluster %v, cache-size %d; want the command line's, the environment's, the preset",
			*f.peerListen, *f.force, *f.cacheSize)
	}
	if got := origins.Of("cache-size"); got.Kind != Default || got.String() != "default of --network wan" {
		t.Errorf("the preset's origin %+v (%q), want a default of --network wan", got, got)
	}
	if err := Preset(f.fs, origins, map[string]string{"cache-size": "lots"}, "--network wan"); err == nil {
		t.Error("a preset the flag refuses: no error")
	}
}
