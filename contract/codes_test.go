package contract

import (
	"strings"
	"testing"
)

func TestValidSeller(t *testing.T) {
	for _, code := range []string{"LY", "UA", "3K", "STAR1", "ABCDEFGH", "12"} {
		if !ValidSeller(code) {
			t.Errorf("ValidSeller(%q) = false", code)
		}
	}
	for _, code := range []string{"", "L", "ABCDEFGHI", "ly", "L-Y", "LY ", "LÝ"} {
		if ValidSeller(code) {
			t.Errorf("ValidSeller(%q) = true", code)
		}
	}
}

func TestValidFlightNumber(t *testing.T) {
	for _, n := range []string{"1", "LY001", "ABCDEFGHIJKLMNOP"} {
		if !ValidFlightNumber(n) {
			t.Errorf("ValidFlightNumber(%q) = false", n)
		}
	}
	for _, n := range []string{"", "ABCDEFGHIJKLMNOPQ", "ly001", "LY 001", "LY-1"} {
		if ValidFlightNumber(n) {
			t.Errorf("ValidFlightNumber(%q) = true", n)
		}
	}
}

func TestValidAlliance(t *testing.T) {
	for _, name := range []string{"star", "Sky_Team-2", "a", "_x", strings.Repeat("x", 64)} {
		if !ValidAlliance(name) {
			t.Errorf("ValidAlliance(%q) = false", name)
		}
	}
	// A '.' would end the alliance early in a booking's id ("star.k3v7..."), so no name has one.
	for _, name := range []string{"", strings.Repeat("x", 65), "star team", "star.1", "é", "a/b"} {
		if ValidAlliance(name) {
			t.Errorf("ValidAlliance(%q) = true", name)
		}
	}
}
