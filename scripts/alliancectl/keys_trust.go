package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"flightalliance/internal/pki"
)

// ensureToken keeps alliance a's token or makes one; it returns the token for the trust file.
func ensureToken(k keyDir, a string) (keyFile, string, error) {
	f := keyFile{Path: k.token(a), What: "alliance " + a + "'s token (its machines' --token-file)"}
	if fileExists(f.Path) {
		tok, err := pki.ReadToken(f.Path)
		if err != nil {
			return f, "", fmt.Errorf("%w; %s", err, errForce(k))
		}
		return f, tok, nil
	}
	tok := pki.Token()
	if err := pki.WriteSecret(f.Path, []byte(tok+"\n")); err != nil {
		return f, "", fmt.Errorf("keys: %w", err)
	}
	f.Wrote = true
	return f, tok, nil
}

// ensureTrust writes the search server's trust file: one line per alliance with its token.
// Lines for other alliances and comments in an existing file are kept.
func ensureTrust(k keyDir, alliances []string, tokens map[string]string) (keyFile, error) {
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

// trustFile is old with each of alliances' lines set to its token (added when missing).
func trustFile(old []byte, alliances []string, tokens map[string]string) []byte {
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
			line = fields[0] + " " + tokens[fields[0]] + "\n"
		}
		if !strings.HasSuffix(line, "\n") {
			line += "\n"
		}
		b.WriteString(line)
	}
	for _, a := range alliances {
		if !done[a] {
			b.WriteString(a + " " + tokens[a] + "\n")
		}
	}
	return []byte(b.String())
}
