package contract

import "testing"

func TestValidIATA(t *testing.T) {
	for _, code := range []string{"TLV", "JFK", "AAA", "ZZZ"} {
		if !ValidIATA(code) {
			t.Errorf("ValidIATA(%q) = false", code)
		}
	}
	for _, code := range []string{"", "TL", "TLVX", "tlv", "TlV", "T1V", "@AA", "[AA", "ÄAA", "TL "} {
		if ValidIATA(code) {
			t.Errorf("ValidIATA(%q) = true", code)
		}
	}
}
