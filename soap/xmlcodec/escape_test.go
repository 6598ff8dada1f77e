package xmlcodec

import (
	"bytes"
	"encoding/xml"
	"testing"
)

// FuzzWriter: whatever the strings and numbers, the Append functions write the bytes
// encoding/xml writes, and the Scanner reads them back as encoding/xml does, without deferring.
func FuzzWriter(f *testing.F) {
	for _, s := range []string{"", "plain", `<>&"'`, "\t\r\n", "]]>", "&amp;", "é日本\U0001F600", "\x00\x1f\x7f",
		"\xff", "a\xc3", "\xed\xa0\x80", "\uFFFE\uFFFF", "\u0085\u2028"} {
		f.Add(s, "x", 0, false)
		f.Add("LY", s, -1<<63, true)
	}
	var s Scanner
	f.Fuzz(func(t *testing.T, a, b string, n int, flag bool) {
		var escaped bytes.Buffer
		if err := xml.EscapeText(&escaped, []byte(a)); err != nil {
			t.Fatal(err)
		}
		if got := AppendText(nil, a); !bytes.Equal(got, escaped.Bytes()) {
			t.Fatalf("AppendText(%q) = %q, encoding/xml escapes %q", a, got, escaped.Bytes())
		}

		v := record{Text: a, Int: n, Bool: flag, List: []string{b, "", a}}
		want, err := xml.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got := AppendStartTag(nil, "r")
		got = AppendElement(got, "s", v.Text)
		got = AppendIntElement(got, "i", v.Int)
		got = AppendBoolElement(got, "b", v.Bool)
		got = AppendOmitEmpty(got, "l", v.List)
		got = AppendEndTag(got, "r")
		if !bytes.Equal(got, want) {
			t.Fatalf("the Append functions write\n%q\nencoding/xml writes\n%q", got, want)
		}
		if !checkReader(t, &s, got) {
			t.Fatalf("the scanner defers what the Append functions write:\n%q", got)
		}
	})
}
