package search

import (
	"bufio"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// Trust is what a search server's trust file says: which alliances may register, each with its
// token. Only the SHA-256 of each token is kept. A nil *Trust is an open server: anyone may
// register and unregister.
//
// The file has one alliance a line, "<alliance> <token>", separated by white space; blank lines
// and lines whose first non-blank character is '#' are ignored, and so is a trailing "# ..."
// after the token. An alliance is named as it registers (1 to 64 letters, digits, '_' or '-'),
// at most once.
type Trust struct {
	sums map[string][sha256.Size]byte // alliance → sha256(token)
}

// noSum stands in for the token of an alliance not in the file, so that checking an unknown
// alliance costs what checking a known one does.
var noSum = sha256.Sum256([]byte("no alliance has this token: it is not in the trust file"))

// LoadTrust reads a trust file. It refuses a file that others than its owner may read (tokens
// are secrets), one that is not a regular file, a malformed line (naming file:line, never the
// token) and a file that names no alliance.
func LoadTrust(file string) (*Trust, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", file)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("%s is readable by others (mode %#o): it holds tokens, chmod 600 it", file, perm)
	}
	return ParseTrust(f, file)
}

// maxTrustLine bounds one line of a trust file.
const maxTrustLine = 4096

// ParseTrust parses a trust file's content; name is the file's name in errors ("file:line: ...").
func ParseTrust(r io.Reader, name string) (*Trust, error) {
	t := &Trust{sums: map[string][sha256.Size]byte{}}
	firstLine := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 256), maxTrustLine)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) > 2 && strings.HasPrefix(fields[2], "#") {
			fields = fields[:2]
		}
		switch {
		case len(fields) != 2:
			// The line is not echoed: it may hold a token.
			return nil, fmt.Errorf("%s:%d: want \"<alliance> <token>\", found %d fields", name, line, len(fields))
		case !clusterRe.MatchString(fields[0]):
			return nil, fmt.Errorf("%s:%d: %q is not an alliance name (1 to 64 letters, digits, '_' or '-')", name, line, clip(fields[0]))
		case firstLine[fields[0]] != 0:
			return nil, fmt.Errorf("%s:%d: alliance %s is given again (first on line %d)", name, line, fields[0], firstLine[fields[0]])
		}
		firstLine[fields[0]] = line
		t.sums[fields[0]] = sha256.Sum256([]byte(fields[1]))
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: line longer than %d bytes", name, line+1, maxTrustLine)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(t.sums) == 0 {
		return nil, fmt.Errorf("%s names no alliance (lines \"<alliance> <token>\"): no one could register", name)
	}
	return t, nil
}

// Alliances returns the alliances of the file, sorted.
func (t *Trust) Alliances() []string {
	names := make([]string, 0, len(t.sums))
	for n := range t.sums {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Allows reports whether token is alliance's token. Tokens are compared by their SHA-256 in
// constant time, so the time a check takes tells nothing of the token.
func (t *Trust) Allows(alliance, token string) bool {
	want, ok := t.sums[alliance]
	if !ok {
		want = noSum
	}
	got := sha256.Sum256([]byte(token))
	return subtle.ConstantTimeCompare(got[:], want[:]) == 1 && ok
}

// AlliancesOf returns the set of alliances whose token is token (every entry is compared, in
// constant time); empty when the token is no alliance's.
func (t *Trust) AlliancesOf(token string) map[string]bool {
	got := sha256.Sum256([]byte(token))
	out := map[string]bool{}
	for name, want := range t.sums {
		if subtle.ConstantTimeCompare(got[:], want[:]) == 1 {
			out[name] = true
		}
	}
	return out
}
