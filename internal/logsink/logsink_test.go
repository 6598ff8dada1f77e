package logsink

import (
	"fmt"
	"sync"
	"testing"
)

func TestBufferKeepsConcurrentLinesWhole(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 100 {
				fmt.Fprintf(&b, "writer=%d line=%d\n", i, j)
			}
		})
	}
	wg.Wait()
	if got, want := len(b.String()), 8*100*len("writer=0 line=00\n")-8*10; got != want {
		t.Errorf("%d bytes written, want %d", got, want)
	}
	if got := b.Last("writer=3 "); got != "writer=3 line=99" {
		t.Errorf("Last(writer=3) = %q, want writer=3 line=99", got)
	}
	if got := b.Last("nobody"); got != "" {
		t.Errorf("Last(nobody) = %q, want none", got)
	}
}
