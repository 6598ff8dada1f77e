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
	"sync/atomic"

	"flightalliance/search/internal/rest"
	"flightalliance/search/registry"
)

// Trust is what a search server's trust file says: which alliances may register, each with its
// token. Only the SHA-256 of each token is kept. A nil *Trust is an open server: anyone may
// register and unregister. Replace puts a file read again in force (SIGHUP).
//
// The file has one token a line, "<alliance> <token>", separated by white space; blank lines
// and lines whose first non-blank character is '#' are ignored, and so is a trailing "# ..."
// after the token. An alliance is named as it registers (1 to 64 letters, digits, '_' or '-').
// An alliance on several lines may use any of their tokens: that is how its token is changed
// without refusing its delegate meanwhile (the new one added, the machines moved to it, the old
// one removed). The same token twice for one alliance is refused, as a mistake. Two alliances
// may share a token (one operator's, say): either may then register and unregister the other.
type Trust struct {
	sums atomic.Pointer[map[string][][sha256.Size]byte] // alliance → sha256 of each of its tokens
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
	sums := map[string][][sha256.Size]byte{}
	type given struct {
		alliance string
		sum      [sha256.Size]byte
	}
	lineOf := map[given]int{} // where each alliance's token was first given
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
		case !registry.ValidName(fields[0]):
			return nil, fmt.Errorf("%s:%d: %q is not an alliance name (1 to 64 letters, digits, '_' or '-')", name, line, rest.Clip(fields[0]))
		}
		sum := sha256.Sum256([]byte(fields[1]))
		key := given{fields[0], sum}
		if first := lineOf[key]; first != 0 {
			return nil, fmt.Errorf("%s:%d: alliance %s is given the same token again (first on line %d)", name, line, fields[0], first)
		}
		lineOf[key] = line
		sums[fields[0]] = append(sums[fields[0]], sum)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: line longer than %d bytes", name, line+1, maxTrustLine)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(sums) == 0 {
		return nil, fmt.Errorf("%s names no alliance (lines \"<alliance> <token>\"): no one could register", name)
	}
	t := &Trust{}
	t.sums.Store(&sums)
	return t, nil
}

// Replace puts what other says in force in t, at once for every check that starts after. (A
// Trust comes from ParseTrust or LoadTrust; a zero Trust allows no one until it is replaced.)
func (t *Trust) Replace(other *Trust) { t.sums.Store(other.sums.Load()) }

// table is the tokens in force: alliance → the SHA-256 of each of its tokens (nil for a zero
// Trust).
func (t *Trust) table() map[string][][sha256.Size]byte {
	if p := t.sums.Load(); p != nil {
		return *p
	}
	return nil
}

// Alliances returns the alliances of the file, sorted.
func (t *Trust) Alliances() []string {
	sums := t.table()
	names := make([]string, 0, len(sums))
	for n := range sums {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Tokens is how many tokens each alliance of the file may use (2 while its token is changed).
func (t *Trust) Tokens() map[string]int {
	out := map[string]int{}
	for n, s := range t.table() {
		out[n] = len(s)
	}
	return out
}

// Allows reports whether token is one of alliance's tokens. Tokens are compared by their
// SHA-256 in constant time, each of the alliance's, so the time a check takes tells nothing of
// the token.
func (t *Trust) Allows(alliance, token string) bool {
	wants, ok := t.table()[alliance]
	if !ok {
		wants = [][sha256.Size]byte{noSum}
	}
	got := sha256.Sum256([]byte(token))
	return matchesAny(got, wants) && ok
}

// AlliancesOf returns the set of alliances one of whose tokens is token (every entry is
// compared, in constant time); empty when the token is no alliance's.
func (t *Trust) AlliancesOf(token string) map[string]bool {
	got := sha256.Sum256([]byte(token))
	out := map[string]bool{}
	for name, wants := range t.table() {
		if matchesAny(got, wants) {
			out[name] = true
		}
	}
	return out
}

// matchesAny compares got with every sum of wants in constant time, without stopping at a match.
func matchesAny(got [sha256.Size]byte, wants [][sha256.Size]byte) bool {
	match := 0
	for _, want := range wants {
		match |= subtle.ConstantTimeCompare(got[:], want[:])
	}
	return match == 1
}
