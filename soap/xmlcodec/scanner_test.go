package xmlcodec

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
	"testing"
)

// tok is a token as both tokenizers can state it: its kind, its raw name (prefix:local), its
// local name (start elements) and its character data.
type tok struct {
	kind              Kind
	name, local, text string
}

// scanDocument reads doc with a Scanner up to the end of its root element, collecting namespace
// declarations, and returns the tokens, the root's StandaloneName and whether it accepted doc.
func scanDocument(s *Scanner, doc []byte) (toks []tok, root xml.Name, accepted bool) {
	s.Reset(doc)
	s.CollectNamespaces(true)
	depth := 0
	var t Token
	for s.Next(&t) {
		switch t.Kind {
		case StartElement:
			if depth == 0 {
				root = s.StandaloneName(&t)
			}
			depth++
			toks = append(toks, tok{kind: StartElement, name: string(t.Name), local: string(t.Local)})
		case EndElement:
			depth--
			toks = append(toks, tok{kind: EndElement, name: string(t.Name)})
		case CharData:
			toks = append(toks, tok{kind: CharData, text: string(t.Text)})
		}
		if t.Kind == EndElement && depth == 0 {
			return toks, root, !s.Failed()
		}
	}
	return toks, root, false
}

// referenceTokens reads doc with encoding/xml's Decoder (Strict) up to the end of its root
// element: the tokens of Token, with the raw names RawToken gives for the same tokens, comments
// and processing instructions left out; and the root element's name as Token translates it.
func referenceTokens(doc []byte) (toks []tok, root xml.Name, err error) {
	d := xml.NewDecoder(bytes.NewReader(doc))
	raw := xml.NewDecoder(bytes.NewReader(doc))
	rawName := func(n xml.Name) string {
		if n.Space == "" {
			return n.Local
		}
		return n.Space + ":" + n.Local
	}
	depth := 0
	for {
		t, err := d.Token()
		if err != nil {
			return toks, root, err
		}
		r, err := raw.RawToken()
		if err != nil {
			return toks, root, fmt.Errorf("RawToken refuses what Token accepts: %w", err)
		}
		switch t := t.(type) {
		case xml.StartElement:
			if depth == 0 {
				root = t.Name
			}
			depth++
			toks = append(toks, tok{kind: StartElement, name: rawName(r.(xml.StartElement).Name), local: t.Name.Local})
		case xml.EndElement:
			depth--
			toks = append(toks, tok{kind: EndElement, name: rawName(r.(xml.EndElement).Name)})
			if depth == 0 {
				return toks, root, nil
			}
		case xml.CharData:
			toks = append(toks, tok{kind: CharData, text: string(t)})
		}
	}
}

// fataler is what the checks need of a *testing.T or a *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// checkScanner checks the Scanner's contract on doc — whatever it accepts, encoding/xml accepts
// and reads as the same tokens, the root element named alike — and reports whether it accepted.
func checkScanner(t fataler, s *Scanner, doc []byte) bool {
	t.Helper()
	got, gotRoot, accepted := scanDocument(s, doc)
	if !accepted {
		return false
	}
	want, wantRoot, err := referenceTokens(doc)
	switch {
	case err != nil:
		t.Fatalf("the scanner accepts what encoding/xml refuses (%v):\n%q", err, doc)
	case fmt.Sprint(got) != fmt.Sprint(want):
		t.Fatalf("the scanner reads\n%+v\nencoding/xml reads\n%+v\nfrom %q", got, want, doc)
	case gotRoot != wantRoot:
		t.Fatalf("the scanner names the root %+v, encoding/xml %+v, in %q", gotRoot, wantRoot, doc)
	}
	return true
}

// scannerSeeds are documents in the subset (accept true) and documents the scanner must leave to
// encoding/xml, whether encoding/xml refuses them or the scanner does not read them.
var scannerSeeds = []struct {
	doc    string
	accept bool
}{
	{`<a/>`, true},
	{`<?xml version="1.0" encoding="UTF-8"?>` + "\n<a>text</a>", true},
	{"<?xml version=\"1.0\"?><!-- c --><?pi x?>\r\n<p:a xmlns:p='urn:p' xmlns=\"urn:d\" q:x = \"1\"><b/>t<![CDATA[<&]]>&amp;&#65;&#x42;</p:a >", true},
	{"<a>\r\n\r\r&#13;]&#93;>é日本\U0001F600</a>", true},
	{`<xml:a/>`, true},
	{`<xmlns:a/>`, true},
	{`<a xmlns="" xmlns:p="x" xmlns:p="y" xmlns:=""/>`, true},
	{`<a:/>`, true},
	{`<:a/>`, true},
	{`<a><b><c/></b></a>trailing <garbage`, true},
	{" \t\n<a/>", true},
	{"text<a/>", true},
	{`<!DOCTYPE a><a/>`, false},
	{`<?xml version="1.1"?><a/>`, false},
	{`<?xml version="1.0" encoding="ISO-8859-1"?><a/>`, false},
	{`<a/><?xml version="1.0"?>`, true}, // the declaration after the root is not read
	{` <?xml version="1.0"?><a/>`, false},
	{`<a>]]></a>`, false},
	{`<a>&unknown;&#0;</a>`, false},
	{`<a>&#xD800;</a>`, true}, // read as U+FFFD, by encoding/xml too
	{"<a>\x00\xff</a>", false},
	{`<a><!-- a -- b --></a>`, false},
	{`<a b=c/>`, false},
	{`<a b="<"/>`, false},
	{`<a:b:c/>`, false},
	{`<1a/>`, false},
	{`<a -b="1"/>`, false},
	{`<a></A>`, false},
	{`<a></b>`, false},
	{`<é/>`, false},
	{`<a>unterminated`, false},
	{`<a><![CDATA[x]]</a>`, false},
	{strings.Repeat("<x>", 70) + strings.Repeat("</x>", 70), false},
}

// FuzzScanner feeds any bytes to the Scanner and to encoding/xml: see checkScanner.
func FuzzScanner(f *testing.F) {
	for _, seed := range scannerSeeds {
		f.Add([]byte(seed.doc))
	}
	var s Scanner
	f.Fuzz(func(t *testing.T, doc []byte) { checkScanner(t, &s, doc) })
}

// TestScannerSeeds checks the seeds as FuzzScanner does, and that the scanner reads the subset
// rather than leaving everything to encoding/xml.
func TestScannerSeeds(t *testing.T) {
	var s Scanner
	for _, seed := range scannerSeeds {
		if accepted := checkScanner(t, &s, []byte(seed.doc)); accepted != seed.accept {
			t.Errorf("%q: accepted %v, want %v", seed.doc, accepted, seed.accept)
		}
	}
}
