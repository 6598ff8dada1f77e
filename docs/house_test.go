// Package docs holds the project's documentation; its test keeps the house in order: the README
// short enough to read in minutes, every relative link of the docs pointing at a file that
// exists, every `make` target they name defined, and no file speaking of the project's own
// history (the tracker's numbers, work sessions) or of documents outside the repository.
package docs

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeLimit is the README's bound in bytes: what a newcomer reads in a few minutes. The rest
// belongs in docs/.
const readmeLimit = 10 * 1024

// root is the repository's top, seen from this package's directory.
const root = ".."

// skippedDirs are not the project's text: version control, build output, local runs' state.
var skippedDirs = map[string]bool{".git": true, "bin": true, "var": true}

// historyWords are words a reader of the project cannot resolve: numbers of the tracker's
// issues and of work sessions, and documents that a clone of the repository does not have.
var historyWords = regexp.MustCompile(`(?i)\b(session|issue|pass) #?[0-9]+\b|\.\./shared\b|\bthe seed\b`)

func TestReadmeFitsOnAScreen(t *testing.T) {
	info, err := os.Stat(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if info.Size() > readmeLimit {
		t.Errorf("README.md is %d bytes, more than %d: move the detail into docs/ and link it", info.Size(), readmeLimit)
	}
}

// TestNoHistoryWords fails on any text file of the repository (code, tests, docs, scripts,
// manifests) that names a tracker issue or a work session, or sends the reader outside the
// repository; the design and the contract are in docs/.
func TestNoHistoryWords(t *testing.T) {
	for _, path := range textFiles(t) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(f)
		lines.Buffer(nil, 1<<20)
		for n := 1; lines.Scan(); n++ {
			if m := historyWords.Find(lines.Bytes()); m != nil {
				t.Errorf("%s:%d: %q speaks of the project's history or of documents outside it; say what is meant",
					rel(path), n, m)
			}
		}
		f.Close()
	}
}

// markdownLink is a Markdown link's target, as in [text](target).
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocLinksResolve: every relative link of README.md and docs/ names a file or folder that
// exists (anchors and web addresses are not checked).
func TestDocLinksResolve(t *testing.T) {
	for _, path := range markdownFiles(t) {
		body, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range markdownLink.FindAllSubmatch(body, -1) {
			target := string(m[1])
			if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			if _, err := os.Stat(filepath.Join(filepath.Dir(path), target)); err != nil {
				t.Errorf("%s: the link %q names nothing in the repository", rel(path), m[1])
			}
		}
	}
}

// codeSpan is a doc's code: a fenced block or an inline span.
var codeSpan = regexp.MustCompile("(?s)```.*?```|`[^`\n]+`")

// makeCommand is `make TARGET` inside code.
var makeCommand = regexp.MustCompile(`(?m)(?:^|[\s;&|(])make ([a-z][a-z0-9-]*)`)

// TestDocMakeTargetsExist: every `make TARGET` in the code of README.md and docs/ is a target of
// the Makefile.
func TestDocMakeTargetsExist(t *testing.T) {
	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	targets := map[string]bool{}
	targetLine := regexp.MustCompile(`^([a-z][a-z0-9-]*)\s*:`)
	for _, line := range strings.Split(string(makefile), "\n") {
		if m := targetLine.FindStringSubmatch(line); m != nil {
			targets[m[1]] = true
		}
	}
	if !targets["test"] {
		t.Fatalf("found no target test in the Makefile: %v", targets)
	}
	for _, path := range markdownFiles(t) {
		body, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, code := range codeSpan.FindAll(body, -1) {
			for _, m := range makeCommand.FindAllSubmatch(code, -1) {
				if !targets[string(m[1])] {
					t.Errorf("%s: `make %s` is no target of the Makefile", rel(path), m[1])
				}
			}
		}
	}
}

// textFiles lists the repository's files that hold text (skipping binaries by a NUL byte in the
// first kilobytes).
func textFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && skippedDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		head := make([]byte, 8192)
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		n, _ := f.Read(head)
		f.Close()
		if !bytes.Contains(head[:n], []byte{0}) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("found %d text files from %s; is this the repository?", len(files), root)
	}
	return files
}

// markdownFiles lists README.md and every Markdown file under docs/.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	files := []string{filepath.Join(root, "README.md")}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			files = append(files, filepath.Join(root, "docs", path))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func rel(path string) string {
	if r, err := filepath.Rel(root, path); err == nil {
		return r
	}
	return path
}
