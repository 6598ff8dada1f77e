package refdoc

import (
	"bytes"
	"fmt"
	"os"
	"testing"
)

// Compare fails t when the file at path differs from want, what the code generates, saying how
// to regenerate it (regenerate: the command). With update it writes want to path instead.
func Compare(t testing.TB, path string, want []byte, update bool, regenerate string) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: generate it with %s", err, regenerate)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what the code generates (%s): regenerate it with %s", path, firstDifference(got, want), regenerate)
	}
}

// firstDifference names the first line where got and want differ.
func firstDifference(got, want []byte) string {
	g, w := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl []byte
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if !bytes.Equal(gl, wl) {
			return fmt.Sprintf("line %d is %q, the code gives %q", i+1, clip(gl), clip(wl))
		}
	}
	return "no line differs"
}

// clip is a line cut short enough for a message.
func clip(line []byte) string {
	if len(line) > 100 {
		return string(line[:100]) + "..."
	}
	return string(line)
}
