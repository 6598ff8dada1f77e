package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"flightalliance/internal/pki"
)

// ensureToken keeps alliance a's token file or makes one; it returns the tokens for the trust
// file (two while the alliance changes its token).
func ensureToken(k keyDir, a string) (keyFile, []string, error) {
	f := keyFile{Path: k.token(a), What: "alliance " + a + "'s token (its machines' --token-file)"}
	if fileExists(f.Path) {
		toks, err := pki.ReadTokens(f.Path)
		if err != nil {
			return f, nil, fmt.Errorf("%w; %s", err, errForce(k))
		}
		return f, toks, nil
	}
	tok := pki.Token()
	if err := pki.WriteSecret(f.Path, []byte(tok+"\n")); err != nil {
		return f, nil, fmt.Errorf("keys: %w", err)
	}
	f.Wrote = true
	return f, []string{tok}, nil
}

// ensureTrust writes the search server's trust file: a line per token of each alliance. Lines
// for other alliances and comments in an existing file are kept.
func ensureTrust(k keyDir, alliances []string, tokens map[string][]string) (keyFile, error) {
	f := keyFile{Path: k.trust(), What: "the search server's --trust file (" + strings.Join(alliances, ", ") + ")"}
	var old []byte
	if fileExists(f.Path) {
		if err := checkSecret(f.Path); err != nil {
			return f, fmt.Errorf("%w; %s", err, errForce(k))
		}
		var err error
		if old, err = os.ReadFile(f.Path); err != nil {
			return f, err
		}
	}
	data := trustFile(old, alliances, tokens)
	if string(data) == string(old) {
		return f, nil
	}
	if err := pki.WriteSecret(f.Path, data); err != nil {
		return f, fmt.Errorf("keys: %w", err)
	}
	f.Wrote = true
	return f, nil
}

// trustFile is old with each of alliances' lines set to its tokens, a line each, where its first
// line was (added at the end when missing).
func trustFile(old []byte, alliances []string, tokens map[string][]string) []byte {
	var b strings.Builder
	if len(old) == 0 {
		b.WriteString("# The search server's --trust file, made by alliancectl keys: <alliance> <token> per line.\n")
	}
	done := map[string]bool{}
	for line := range strings.Lines(string(old)) {
		fields := strings.Fields(line)
		if len(fields) > 0 && !strings.HasPrefix(fields[0], "#") && slices.Contains(alliances, fields[0]) {
			if done[fields[0]] {
				continue
			}
			done[fields[0]] = true
			line = trustLines(fields[0], tokens[fields[0]])
		}
		if !strings.HasSuffix(line, "\n") {
			line += "\n"
		}
		b.WriteString(line)
	}
	for _, a := range alliances {
		if !done[a] {
			b.WriteString(trustLines(a, tokens[a]))
		}
	}
	return []byte(b.String())
}

// trustLines are alliance a's lines of a trust file: one per token.
func trustLines(a string, tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteString(a + " " + t + "\n")
	}
	return b.String()
}
