package search

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"flightalliance/internal/pki"
)

func writeTrust(t *testing.T, content string, mode os.FileMode) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "trust")
	if err := os.WriteFile(file, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(file, mode); err != nil {
		t.Fatal(err)
	}
	return file
}

func TestLoadTrust(t *testing.T) {
	star, sky := pki.Token(), pki.Token()
	file := writeTrust(t, "# the alliances of this search server\n\n  star   "+star+"\nsky\t"+sky+" # added later\n   # indented comment\n", 0o600)
	tr, err := LoadTrust(file)
	if err != nil {
		t.Fatal(err)
	}
	if got := tr.Alliances(); !slices.Equal(got, []string{"sky", "star"}) {
		t.Errorf("alliances %v", got)
	}
	switch {
	case !tr.Allows("star", star), !tr.Allows("sky", sky):
		t.Error("an alliance's own token is refused")
	case tr.Allows("star", sky), tr.Allows("sky", star), tr.Allows("star", star+"x"), tr.Allows("star", ""):
		t.Error("a token that is not the alliance's is allowed")
	case tr.Allows("oneworld", star):
		t.Error("an alliance not in the file is allowed")
	}
	if got := tr.AlliancesOf(star); len(got) != 1 || !got["star"] {
		t.Errorf("AlliancesOf(star's token) = %v", got)
	}
	if got := tr.AlliancesOf("nope"); len(got) != 0 {
		t.Errorf("AlliancesOf(a stranger's token) = %v", got)
	}

	shared, err := ParseTrust(strings.NewReader("a t0k\nb t0k\nc other\n"), "shared")
	if err != nil {
		t.Fatal(err)
	}
	if got := shared.AlliancesOf("t0k"); len(got) != 2 || !got["a"] || !got["b"] {
		t.Errorf("a token two alliances share: %v", got)
	}
}

// TestTrustDuringARotation: an alliance on two lines may use either token, and no other; Replace
// puts a file read again in force for the checks that follow (the old token refused once its
// line is gone), and what it replaced is untouched.
func TestTrustDuringARotation(t *testing.T) {
	old, renewed, sky := pki.Token(), pki.Token(), pki.Token()
	before, err := ParseTrust(strings.NewReader("star "+old+"\nsky "+sky+"\n"), "before")
	if err != nil {
		t.Fatal(err)
	}
	during, err := ParseTrust(strings.NewReader("star "+old+"\nsky "+sky+"\nstar "+renewed+" # the new one\n"), "during")
	if err != nil {
		t.Fatal(err)
	}
	after, err := ParseTrust(strings.NewReader("sky "+sky+"\nstar "+renewed+"\n"), "after")
	if err != nil {
		t.Fatal(err)
	}
	inForce := &Trust{}
	inForce.Replace(before)
	check := func(when string, want map[string]bool) {
		t.Helper()
		for token, allowed := range want {
			if got := inForce.Allows("star", token); got != allowed {
				t.Errorf("%s: star with %s: allowed %v, want %v", when, map[string]string{old: "the old token", renewed: "the new token", sky: "sky's token"}[token], got, allowed)
			}
		}
		if !inForce.Allows("sky", sky) || inForce.Allows("sky", old) || inForce.Allows("sky", renewed) {
			t.Errorf("%s: sky's tokens changed", when)
		}
	}
	check("before", map[string]bool{old: true, renewed: false, sky: false})
	inForce.Replace(during)
	check("during", map[string]bool{old: true, renewed: true, sky: false})
	if got := inForce.Tokens(); got["star"] != 2 || got["sky"] != 1 {
		t.Errorf("during: tokens per alliance %v, want star 2 and sky 1", got)
	}
	if got := inForce.AlliancesOf(renewed); len(got) != 1 || !got["star"] {
		t.Errorf("during: AlliancesOf(the new token) = %v", got)
	}
	inForce.Replace(after)
	check("after", map[string]bool{old: false, renewed: true, sky: false})
	if len(inForce.AlliancesOf(old)) != 0 {
		t.Error("after: the old token still names an alliance")
	}
	if !before.Allows("star", old) || before.Allows("star", renewed) {
		t.Error("Replace changed the trust it was given")
	}
}

// TestTrustFileErrors: a file others may read, a malformed line (named file:line, the token
// never echoed), an empty file, a directory and a missing file are refused.
func TestTrustFileErrors(t *testing.T) {
	secret := pki.Token()
	for _, c := range []struct {
		name, content string
		mode          os.FileMode
		want          string
	}{
		{"world-readable", "star " + secret + "\n", 0o644, "chmod 600"},
		{"group-readable", "star " + secret + "\n", 0o640, "readable by others"},
		{"one field", "# c\nstar " + secret + "\nsky\n", 0o600, "trust:3: want \"<alliance> <token>\", found 1 fields"},
		{"three fields", "star " + secret + " extra\n", 0o600, "trust:1: want"},
		{"bad name", "\nst.ar " + secret + "\n", 0o600, `trust:2: "st.ar" is not an alliance name`},
		{"the same token twice", "star " + secret + "\nsky b\nstar " + secret + " # again\n", 0o600, "trust:3: alliance star is given the same token again (first on line 1)"},
		{"empty", "# nobody yet\n\n", 0o600, "names no alliance"},
		{"too long", "star " + strings.Repeat("x", 5000) + "\n", 0o600, "trust:1: line longer than"},
	} {
		file := writeTrust(t, c.content, c.mode)
		_, err := LoadTrust(file)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
			continue
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("%s: the error shows the token: %v", c.name, err)
		}
		if !strings.Contains(err.Error(), file) {
			t.Errorf("%s: the error does not name the file: %v", c.name, err)
		}
	}
	if _, err := LoadTrust(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("a missing trust file was accepted")
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadTrust(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory: %v", err)
	}
}

// TestZeroTrustAllowsNoOne: a Trust not read from a file yet allows no one, and does not panic.
func TestZeroTrustAllowsNoOne(t *testing.T) {
	var zero Trust
	if zero.Allows("star", "anything") || len(zero.AlliancesOf("anything")) != 0 || len(zero.Alliances()) != 0 || len(zero.Tokens()) != 0 {
		t.Error("a zero Trust allows someone, or names an alliance")
	}
}
