package xmlcodec

import (
	"encoding/xml"
	"strings"
	"testing"
)

// record is what the reader tests decode <r>…</r> into: each field from the children of its tag,
// as encoding/xml's Unmarshal fills it and as a reader of the Scanner fills it (readRecord). The
// writer tests write it with the Append functions and with xml.Marshal.
type record struct {
	XMLName xml.Name `xml:"r"`
	Text    string   `xml:"s"`
	Int     int      `xml:"i"`
	Bool    bool     `xml:"b"`
	List    []string `xml:"l,omitempty"` // omitempty: Marshal leaves out empty items
}

// readRecord reads doc's root element as package soap reads its types: NextChild, then Text,
// Int or Bool by local name, Skip for the rest. It reports false when the scanner fails.
func readRecord(s *Scanner, doc []byte) (record, bool) {
	r, ok := openRecord(s, doc)
	if !ok {
		return record{}, false
	}
	readFields(s, &r)
	return r, !s.Failed()
}

// openRecord reads doc up to the start of its root element, which must be <r>.
func openRecord(s *Scanner, doc []byte) (record, bool) {
	s.Reset(doc)
	var t Token
	for s.Next(&t) && t.Kind != StartElement {
	}
	if s.Failed() || string(t.Local) != "r" {
		return record{}, false
	}
	return record{XMLName: xml.Name{Local: "r"}}, true
}

// readFields reads the rest of <r> into r, as Unmarshal would.
func readFields(s *Scanner, r *record) {
	var t Token
	for s.NextChild(&t) {
		switch string(t.Local) {
		case "s":
			r.Text = s.Text()
		case "i":
			r.Int = s.Int()
		case "b":
			r.Bool = s.Bool()
		case "l":
			r.List = append(r.List, s.Text())
		default:
			s.Skip()
		}
	}
}

// checkReader checks that whatever record the Scanner reads from doc, encoding/xml reads too,
// and reports whether the Scanner read one.
func checkReader(t fataler, s *Scanner, doc []byte) bool {
	t.Helper()
	got, accepted := readRecord(s, doc)
	if !accepted {
		return false
	}
	var want record
	if err := xml.Unmarshal(doc, &want); err != nil {
		t.Fatalf("the scanner reads %+v from what encoding/xml refuses (%v):\n%q", got, err, doc)
	}
	if got.XMLName.Local != want.XMLName.Local || got.Text != want.Text || got.Int != want.Int || got.Bool != want.Bool ||
		strings.Join(got.List, "\x00") != strings.Join(want.List, "\x00") || (got.List == nil) != (want.List == nil) {
		t.Fatalf("the scanner reads\n%+v\nencoding/xml reads\n%+v\nfrom %q", got, want, doc)
	}
	return true
}

// readerSeeds are the contents of <r> a reader must read (accept true) or leave to encoding/xml.
var readerSeeds = []struct {
	content string
	accept  bool
}{
	{`<s>plain</s><i>42</i><b>true</b><l>x</l><l></l><l/>`, true},
	{`<s>a<!--c--><![CDATA[<b>]]>&amp;<i>skipped</i>z</s><s>last</s>`, true},
	{"<s>\r\n two \r lines</s><i>\n -7 \t</i><b> 1 </b>", true},
	{`<i></i><b></b><s/>`, true},
	{`<i>+0012</i><i>999999999999999999</i><i>-9223372036854775808</i>`, true},
	{`<b>T</b><b>FALSE</b><b>0</b>`, true},
	{`<p:s xmlns:p="urn:p" a="1">prefixed</p:s>`, true},
	{`text<x><s>nested: not a field</s></x>more`, true},
	{`<i>abc</i>`, false},
	{`<i>9223372036854775808</i>`, false},
	{`<i>1.5</i>`, false},
	{`<b>yes</b>`, false},
	{`<s>&nope;</s>`, false},
	{`<s>unterminated`, false},
}

// FuzzReader feeds any content of <r> to readRecord and to Unmarshal: see checkReader.
func FuzzReader(f *testing.F) {
	for _, seed := range readerSeeds {
		f.Add(seed.content)
	}
	var s Scanner
	f.Fuzz(func(t *testing.T, content string) {
		checkReader(t, &s, []byte("<r>"+content+"</r>"))
	})
}

// TestReaderSeeds checks the seeds as FuzzReader does, and that the reader reads what it should
// rather than leaving everything to encoding/xml.
func TestReaderSeeds(t *testing.T) {
	var s Scanner
	for _, seed := range readerSeeds {
		if accepted := checkReader(t, &s, []byte("<r>"+seed.content+"</r>")); accepted != seed.accept {
			t.Errorf("%q: accepted %v, want %v", seed.content, accepted, seed.accept)
		}
	}
}
