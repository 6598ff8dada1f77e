package xmlcodec

import (
	"reflect"
	"testing"
)

// readRecordPlain reads doc's root element as readRecord does, after a first plain reading of
// the fields in the order s, i, then every l (PlainText, PlainInt, PlainUniqueText), as package
// soap reads its hot types.
func readRecordPlain(s *Scanner, doc []byte) (record, bool) {
	r, ok := openRecord(s, doc)
	if !ok {
		return record{}, false
	}
	if text, ok := s.PlainText("s"); ok {
		r.Text = text
		if n, ok := s.PlainInt("i"); ok {
			r.Int = n
			for {
				item, ok := s.PlainUniqueText("l")
				if !ok {
					break
				}
				r.List = append(r.List, item)
			}
		}
	}
	readFields(s, &r)
	return r, !s.Failed()
}

// checkPlain checks that the plain first reading changes nothing: the scanner accepts doc with
// it exactly when it does without it, and reads the same record.
func checkPlain(t *testing.T, doc []byte) {
	t.Helper()
	var general, plain Scanner
	want, wantOK := readRecord(&general, doc)
	got, gotOK := readRecordPlain(&plain, doc)
	if gotOK != wantOK || (wantOK && !reflect.DeepEqual(got, want)) {
		t.Fatalf("with the plain reading: %+v, accepted %v; without: %+v, accepted %v\nfrom %q", got, gotOK, want, wantOK, doc)
	}
}

// plainSeeds are contents of <r> where the plain reading reads all, some or none of the fields.
var plainSeeds = []string{
	`<s>plain</s><i>42</i><l>x</l><l></l><l>y</l>`,
	`<s>plain</s><i>42</i><l>x</l><l/><l>y</l><s>again</s><b>true</b>`,
	`<s>a</s><i> 7 </i><l>x</l>`, `<s>a</s><i></i>`, `<s>a</s><i>+0000000000000000000000012</i>`,
	`<s>a</s><i>x</i><l>never read</l>`, `<s>a</s><i>99999999999999999999</i>`,
	`<s>a&amp;b</s><i>1</i>`, `<s >a</s><i>1</i>`, `<s>a</s ><i>1</i>`, `<s a="1">a</s>`, `<p:s xmlns:p="u">a</p:s><i>1</i>`,
	`<s/><i>1</i>`, `<s>a</s> <i>1</i>`, `<s>a<!--c--></s>`, `<s>a<x/></s><i>2</i>`, `<s>` + "\u00e9" + `</s><i>1</i>`,
	`<s>a</S><i>1</i>`, `<s>a</sx><i>1</i>`, `<sx>a</s>`, `<s>a<s>`, `<s>a</`, `<s>a`, `<s`, `<i>1</i><s>a</s>`,
	`<s>a</s><i>1</i><l>x</l></r><r>`, `<s>]</s><i>1</i>`, `<s>a</s><i>1</i><l>` + "\t" + `</l>`,
}

func TestPlainReadingReadsAsTheGeneralOne(t *testing.T) {
	for _, seed := range plainSeeds {
		checkPlain(t, []byte("<r>"+seed+"</r>"))
	}
	// And where it cannot read: after a self-closing element, whose end comes first.
	var s Scanner
	s.Reset([]byte(`<r/><s>a</s>`))
	var tok Token
	if !s.Next(&tok) || tok.Kind != StartElement {
		t.Fatal("no start")
	}
	if _, ok := s.PlainText("s"); ok {
		t.Fatal("PlainText read a sibling of a self-closing element as its child")
	}
}

// FuzzPlainReading checks any content of <r> as TestPlainReadingReadsAsTheGeneralOne does.
func FuzzPlainReading(f *testing.F) {
	for _, seed := range plainSeeds {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, content string) {
		checkPlain(t, []byte("<r>"+content+"</r>"))
	})
}
