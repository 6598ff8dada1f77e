package soap

import (
	"encoding/xml"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// FuzzDecodeStyled is FuzzDecodeEnvelope for documents that stay valid: a random hot response,
// written the way any SOAP stack might write it — prefixes declared anywhere or nowhere,
// attributes, white space and line ends between tags, headers, comments and processing
// instructions, text cut into plain runs, references and CDATA sections, empty elements
// self-closed, unknown elements, a scalar given twice — must be accepted by the fast decoder
// (none of it is outside its subset) and decoded as encoding/xml decodes it, which must be the
// response itself. Byte mutations of real answers (FuzzDecodeEnvelope) are mostly malformed;
// this target explores the documents the fast decoder accepts. TestDecodeStyled runs it as a
// property test.
func FuzzDecodeStyled(f *testing.F) { f.Fuzz(rapid.MakeFuzz(decodeStyled)) }

func TestDecodeStyled(t *testing.T) { rapid.Check(t, decodeStyled) }

func decodeStyled(t *rapid.T) {
	xmlChars := func(s string) string { // what XML can carry: anything but the Char production is out
		return strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' || 0x20 <= r && r <= 0xD7FF || 0xE000 <= r && r <= 0xFFFD || 0x10000 <= r && r <= 0x10FFFF {
				return r
			}
			return 'x'
		}, s)
	}
	var name string
	var v any
	var fresh func() any
	switch rapid.IntRange(0, 3).Draw(t, "type") {
	case 0:
		name, v, fresh = "getTripsResponse", genTrips(t), func() any { return new(GetTripsResponse) }
	case 3:
		name, fresh = "getRelevantFlightsResponse", func() any { return new(RelevantBothResponse) }
		v = &RelevantBothResponse{Sellers: listOf(t, "sellers", awkwardString(), 3), FromSrc: genFlights(t), ToDst: genFlights(t)}
	case 1:
		name, fresh = "getFlightsResponse", func() any { return new(RelevantFlightsResponse) }
		v = &RelevantFlightsResponse{Sellers: listOf(t, "sellers", awkwardString(), 3), Flights: genFlights(t)}
	default:
		name, fresh = "sendBackupSellerResponse", func() any { return new(SellerPage) }
		str := awkwardString()
		v = &SellerPage{Seller: str.Draw(t, "seller"), Version: str.Draw(t, "version"), Flights: genFlights(t), NextCursor: str.Draw(t, "cursor")}
	}
	v = sanitized(v, xml.Name{})             // as the wire gives it back...
	mapStrings(reflect.ValueOf(v), xmlChars) // ...without the characters XML cannot carry at all
	st := &styler{t: t}
	doc := st.document(name, v)
	ref := fresh()
	if err := referenceDecode([]byte(doc), name, ref); err != nil {
		t.Fatalf("encoding/xml refuses a styled document (%v):\n%s", err, doc)
	}
	if !reflect.DeepEqual(clearNames(ref), v) {
		t.Fatalf("encoding/xml decodes\n%+v\nfrom a styled\n%+v:\n%s", ref, v, doc)
	}
	if !checkDecoder(t, []byte(doc), name, fresh) {
		t.Fatalf("the fast decoder defers a styled document:\n%s", doc)
	}
}

// styler writes XML with random but valid choices.
type styler struct {
	t *rapid.T
	b strings.Builder
}

func (st *styler) pick(label string, options ...string) string {
	return rapid.SampledFrom(options).Draw(st.t, label)
}

func (st *styler) chance(label string) bool { return rapid.IntRange(0, 3).Draw(st.t, label) == 0 }

func (st *styler) space() { st.b.WriteString(st.pick("space", "", "", " ", "\n", "\r\n  ", "\t")) }

// misc writes what may stand between elements: white space, comments, instructions.
func (st *styler) misc() {
	st.space()
	if st.chance("misc") {
		st.b.WriteString(st.pick("comment", "<!-- c -->", "<!---->", "<?pi data?>", "<?keep?>", "<!-- a - b -->"))
		st.space()
	}
}

// start writes a start tag of local name local and returns the raw name for its end tag.
func (st *styler) start(local string, empty bool) string {
	prefix := st.pick("prefix", "", "", "t:", "ns1:")
	st.b.WriteString("<" + prefix + local)
	for range rapid.IntRange(0, 2).Draw(st.t, "attrs") {
		quote := st.pick("quote", `"`, `'`)
		attr := st.pick("attr", "id", "xmlns:t", "xmlns", "q:x", "xmlns:ns1")
		st.b.WriteString(st.pick("before", " ", "\n\t", "  ") + attr + st.pick("eq", "=", " = ") + quote +
			st.pick("value", "urn:flightalliance:v1", "1", "a&amp;b", "&#x3C;", ">", "]]>", "") + quote)
	}
	st.space()
	if empty {
		st.b.WriteString("/>")
	} else {
		st.b.WriteString(">")
	}
	return prefix + local
}

func (st *styler) end(raw string) {
	st.b.WriteString("</" + raw)
	st.space()
	st.b.WriteString(">")
}

// text writes s in pieces: escaped runs, character references, CDATA sections, comments between.
func (st *styler) text(s string) {
	for s != "" {
		r, size := utf8.DecodeRuneInString(s)
		n := min(len(s), rapid.IntRange(size, 8).Draw(st.t, "piece"))
		for !utf8.ValidString(s[:n]) {
			n--
		}
		piece := s[:n]
		switch st.pick("form", "plain", "plain", "ref", "cdata", "comment") {
		case "ref":
			piece = s[:size]
			st.b.WriteString(st.pick("ref", "&#"+strconv.Itoa(int(r))+";", fmt.Sprintf("&#x%X;", r), fmt.Sprintf("&#x%x;", r)))
		case "cdata":
			if !strings.Contains(piece, "]]>") && !strings.Contains(piece, "\r") && !strings.HasSuffix(piece, "]") {
				st.b.WriteString("<![CDATA[" + piece + "]]>")
				break
			}
			fallthrough
		case "comment":
			st.b.WriteString("<!--x-->")
			fallthrough
		default: // a raw CR is read as a line end: CR LF as LF
			newline := st.pick("newline", "\n", "\r\n")
			st.b.WriteString(strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\r", "&#13;", "\n", newline).Replace(piece))
		}
		s = s[len(piece):]
	}
}

// leaf writes an element holding text, self-closed when empty if the dice say so.
func (st *styler) leaf(local, text string) {
	st.misc()
	if text == "" && st.chance("selfclose") {
		st.start(local, true)
		return
	}
	raw := st.start(local, false)
	st.text(text)
	st.end(raw)
}

// value writes the fields of a struct as elements, with noise: unknown elements, a scalar given
// twice (the first one is overwritten), text between them.
func (st *styler) value(v reflect.Value) {
	for i := range v.NumField() {
		f, tag := v.Field(i), strings.Split(v.Type().Field(i).Tag.Get("xml"), ",")
		if v.Type().Field(i).Name == "XMLName" {
			continue
		}
		if st.chance("noise") {
			st.misc()
			raw := st.start(st.pick("unknown", "Extra", "XMLName", "trips", "Leg"), false) // no field's name
			st.text(" x ")
			st.b.WriteString("<deep><Seats>1</Seats></deep>")
			st.end(raw)
		}
		omit := len(tag) > 1 && tag[1] == "omitempty"
		switch f.Kind() {
		case reflect.String:
			if omit && f.String() == "" {
				continue
			}
			if st.chance("twice") {
				st.leaf(tag[0], "overwritten")
			}
			st.leaf(tag[0], f.String())
		case reflect.Int:
			st.leaf(tag[0], st.pick("intpad", "", " ", "\n")+strconv.Itoa(int(f.Int()))+st.pick("intpad", "", " "))
		case reflect.Bool:
			st.leaf(tag[0], map[bool]string{true: st.pick("true", "true", "1", " True "), false: st.pick("false", "false", "0", "F")}[f.Bool()])
		case reflect.Slice:
			for j := range f.Len() {
				if e := f.Index(j); e.Kind() == reflect.String {
					st.leaf(tag[0], e.String())
				} else if e.Kind() == reflect.Int {
					st.leaf(tag[0], st.pick("intpad", "", " ", "\n")+strconv.Itoa(int(e.Int()))+st.pick("intpad", "", " "))
				} else {
					st.misc()
					raw := st.start(tag[0], false)
					st.value(e)
					st.misc()
					st.end(raw)
				}
			}
		}
	}
}

// document writes a whole envelope around v as the element name.
func (st *styler) document(name string, v any) string {
	st.b.WriteString(st.pick("decl", "", `<?xml version="1.0" encoding="UTF-8"?>`, `<?xml version="1.0"?>`+"\n"))
	st.misc()
	env := st.pick("env", "soap", "SOAP-ENV", "s")
	st.b.WriteString("<" + env + ":Envelope xmlns:" + env + `="` + envNS + `"` + st.pick("envattr", "", ` xmlns:t="urn:flightalliance:v1"`) + ">")
	st.misc()
	if st.chance("header") {
		st.b.WriteString("<" + env + ":Header><h:Trace xmlns:h=\"urn:h\">x<y/></h:Trace></" + env + ":Header>")
		st.misc()
	}
	st.b.WriteString("<" + env + ":Body>")
	st.misc()
	raw := st.start(name, false)
	st.value(reflect.ValueOf(v).Elem())
	st.misc()
	st.end(raw)
	st.misc()
	st.b.WriteString("</" + env + ":Body>")
	st.misc()
	st.b.WriteString("</" + env + ":Envelope>")
	st.misc()
	return st.b.String()
}

// mapStrings applies fn to every string in v.
func mapStrings(v reflect.Value, fn func(string) string) {
	switch v.Kind() {
	case reflect.Pointer:
		mapStrings(v.Elem(), fn)
	case reflect.String:
		v.SetString(fn(v.String()))
	case reflect.Struct:
		for i := range v.NumField() {
			mapStrings(v.Field(i), fn)
		}
	case reflect.Slice:
		for i := range v.Len() {
			mapStrings(v.Index(i), fn)
		}
	}
}
