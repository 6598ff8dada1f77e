package alliance

import "testing"

func TestDecodeSettingsRefusesWhatNoMachineCouldPlanWith(t *testing.T) {
	if s, err := decodeSettings([]byte(`{"replicas":3}`)); err != nil || s.Replicas != 3 {
		t.Fatalf("decodeSettings(3) = %+v, %v", s, err)
	}
	for _, bad := range []string{`{"replicas":0}`, `{"replicas":6}`, `{}`, `not json`} {
		if _, err := decodeSettings([]byte(bad)); err == nil {
			t.Errorf("decodeSettings(%s) accepted it", bad)
		}
	}
}
