// Package logsink is a log destination for tests: a buffer that the goroutines of a server
// write to at once and that a test reads while they run.
package logsink

import (
	"bytes"
	"strings"
	"sync"
)

// Buffer keeps everything written to it; safe for concurrent use.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Last is the last line written that contains s, without its newline ("" if none).
func (b *Buffer) Last(s string) string {
	var found string
	for line := range strings.Lines(b.String()) {
		if strings.Contains(line, s) {
			found = strings.TrimSuffix(line, "\n")
		}
	}
	return found
}
