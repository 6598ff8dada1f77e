package xmlcodec

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestScannerReadsTheSubset: random documents within the subset — declarations, comments and
// processing instructions, prefixes declared or not, attributes in either quotes, white space
// inside tags, text in plain runs, references and CDATA sections, self-closed elements — are
// accepted by the Scanner and read as encoding/xml reads them. FuzzScanner mostly meets malformed
// documents; this explores the ones the Scanner must read itself.
func TestScannerReadsTheSubset(t *testing.T) {
	var s Scanner // one for all documents, as a pooled one is
	rapid.Check(t, func(t *rapid.T) {
		w := &docWriter{t: t}
		doc := w.document()
		if !checkScanner(t, &s, []byte(doc)) {
			t.Fatalf("the scanner defers a document in its subset:\n%s", doc)
		}
	})
}

// docWriter writes a random document within the Scanner's subset.
type docWriter struct {
	t *rapid.T
	b strings.Builder
}

func (w *docWriter) pick(label string, options ...string) string {
	return rapid.SampledFrom(options).Draw(w.t, label)
}

func (w *docWriter) document() string {
	w.b.WriteString(w.pick("decl", "", `<?xml version="1.0" encoding="UTF-8"?>`, `<?xml version="1.0" encoding="utf-8"?>`, `<?xml version="1.0"?>`))
	w.misc()
	w.element(0)
	w.misc()
	return w.b.String()
}

// misc writes what may stand between elements: white space, comments, instructions.
func (w *docWriter) misc() {
	for range rapid.IntRange(0, 2).Draw(w.t, "misc") {
		w.b.WriteString(w.pick("space", "", " ", "\n", "\r\n\t"))
		w.b.WriteString(w.pick("comment", "<!---->", "<!-- c -->", "<!-- a - b -->", "<?pi?>", "<?keep going?>", "<?xml-stylesheet x?>"))
	}
}

// element writes an element with attributes and, unless self-closed, mixed content.
func (w *docWriter) element(depth int) {
	name := w.pick("prefix", "", "", "p:", "soap:") + w.pick("name", "a", "Trip", "x-y", "_z", "a.b", "n1", "xmlns", "xml")
	w.b.WriteString("<" + name)
	for _, attr := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"id", "q:x", "xmlns", "xmlns:p", "xmlns:soap", "xml:lang"}),
		0, 3, rapid.ID).Draw(w.t, "attrs") {
		quote := w.pick("quote", `"`, `'`)
		w.b.WriteString(w.pick("before", " ", "\n\t") + attr + w.pick("eq", "=", " = ") + quote)
		w.text(strings.NewReplacer(`"`, "&quot;", "'", "&apos;").Replace(w.pick("value", "", "urn:p", "1", "a b", `"'`, "]]>")))
		w.b.WriteString(quote)
	}
	w.b.WriteString(w.pick("space", "", " ", "\n"))
	if rapid.IntRange(0, 4).Draw(w.t, "selfclose") == 0 {
		w.b.WriteString("/>")
		return
	}
	w.b.WriteString(">")
	for range rapid.IntRange(0, 4).Draw(w.t, "content") {
		switch w.pick("kind", "text", "text", "cdata", "misc", "element") {
		case "text":
			w.text(rapid.String().Draw(w.t, "text"))
		case "cdata":
			w.b.WriteString("<![CDATA[" + strings.ReplaceAll(xmlChars(rapid.String().Draw(w.t, "cdata")), "]]>", "]]") + "]]>")
		case "misc":
			w.misc()
		default:
			if depth < 4 {
				w.element(depth + 1)
			}
		}
	}
	w.b.WriteString("</" + name + w.pick("space", "", " ", "\n") + ">")
}

// text writes s, less what XML cannot carry, as character data: markup escaped, some characters
// as decimal or hexadecimal references, line ends as they are.
func (w *docWriter) text(s string) {
	for _, r := range xmlChars(s) {
		switch {
		case r == '&' || r == '<' || r == '>':
			w.b.WriteString(map[rune]string{'&': "&amp;", '<': "&lt;", '>': "&gt;"}[r])
		case rapid.IntRange(0, 9).Draw(w.t, "ref") == 0:
			w.b.WriteString(w.pick("form", fmt.Sprintf("&#%d;", r), fmt.Sprintf("&#x%X;", r), fmt.Sprintf("&#x%x;", r)))
		default:
			w.b.WriteRune(r)
		}
	}
}

// xmlChars replaces what is not an XML character (the Char production) by 'x'.
func xmlChars(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || 0x20 <= r && r <= 0xD7FF || 0xE000 <= r && r <= 0xFFFD || 0x10000 <= r && r <= 0x10FFFF {
			return r
		}
		return 'x'
	}, s)
}
