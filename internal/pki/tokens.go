package pki

import (
	"fmt"
	"os"
	"strings"
)

// maxTokenFile bounds a token file: a few tokens of a few hundred bytes each, not a log.
const maxTokenFile = 64 << 10

// ReadTokens reads a token file: one token a line, without surrounding white space; blank lines
// and lines whose first non-blank character is '#' are skipped, and so is a trailing "# ..."
// after the token, as in a search server's trust file. The first token is the one a machine sends; every one is accepted — a second line is how
// an alliance's token is changed without its machines refusing each other meanwhile.
//
// Refused, naming the file and line but never the token (tokens are secrets): a file others than
// its owner may read, one that is not a regular file or is larger than 64 KiB, one that holds no
// token, a line with white space inside (a trust file's "<alliance> <token>" pasted here would
// otherwise be sent as a token), and a token given twice.
func ReadTokens(file string) ([]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("token-file: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	switch {
	case err != nil:
		return nil, fmt.Errorf("token-file: %w", err)
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("token-file: %s is not a regular file", file)
	case st.Mode().Perm()&0o077 != 0:
		return nil, fmt.Errorf("token-file: %s is readable by others (mode %#o): chmod 600 it", file, st.Mode().Perm())
	case st.Size() > maxTokenFile:
		return nil, fmt.Errorf("token-file: %s is larger than %d bytes: not a token file", file, maxTokenFile)
	}
	data := make([]byte, st.Size())
	if _, err := f.ReadAt(data, 0); err != nil && st.Size() > 0 {
		return nil, fmt.Errorf("token-file: %w", err)
	}
	var tokens []string
	lineOf := map[string]int{}
	n := 0
	for line := range strings.Lines(string(data)) {
		n++
		fields := strings.Fields(line)
		if len(fields) > 1 && strings.HasPrefix(fields[1], "#") {
			fields = fields[:1] // "<token> # a note"
		}
		switch {
		case len(fields) == 0 || strings.HasPrefix(fields[0], "#"):
			continue
		case len(fields) > 1:
			return nil, fmt.Errorf("token-file: %s:%d: white space inside the token (one token a line, nothing else)", file, n)
		}
		tok := fields[0]
		if lineOf[tok] != 0 {
			return nil, fmt.Errorf("token-file: %s:%d: the same token as on line %d", file, n, lineOf[tok])
		}
		lineOf[tok] = n
		tokens = append(tokens, tok)
	}
	if len(tokens) == 0 {
		return nil, fmt.Errorf("token-file: %s is empty (no token on any line)", file)
	}
	return tokens, nil
}
