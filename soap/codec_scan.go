package soap

import "bytes"

// scanner tokenizes an XML document held in memory for the fast response decoder
// (codec_decode.go). It is a port of encoding/xml's tokenizer (Decoder.rawToken and Token in
// Strict mode, Go 1.26) restricted to a subset: ASCII names, the XML declaration as servers
// write it, no DTD or other directive, at most maxScanDepth open elements. Whatever leaves the
// subset, and whatever encoding/xml would refuse, stops the scanner with bad set; the decoder
// then hands the whole input to encoding/xml, which gives the value or the error the input
// deserves. So the scanner never explains an error: it only has to be right when it accepts.
//
// The tokens are those of encoding/xml's Token: start and end elements (a self-closing element
// is both, and an end must repeat its start's name, prefix included; end tokens carry no local
// name, which no reader needs), and character data
// (text and CDATA sections, entities and character references replaced, line ends normalized,
// each piece checked for UTF-8 and for XML's character range). Comments and processing
// instructions are checked and dropped, as the decoder ignores them.
type scanner struct {
	b         []byte
	i         int      // next byte to read
	bad       bool     // outside the subset, or malformed: the caller falls back to encoding/xml
	stack     []span   // raw names of the open elements
	needClose bool     // the last start element was self-closing: next returns its end
	collect   bool     // record the namespace declarations of start elements in decls
	decls     []nsDecl // when collect is set: the last start element's declarations
	buf       []byte   // decoded text that could not alias b
	acc       []byte   // a leaf's text in several pieces
	legs      []Leg    // the chunk the current answer's trips take their legs from
	strs      internCache
}

// span is a range of the input, [from, to).
type span struct{ from, to int }

// nsDecl is a namespace declaration: xmlns="value" (prefix "") or xmlns:prefix="value".
type nsDecl struct{ prefix, value string }

// maxScanDepth bounds element nesting; deeper documents go to encoding/xml.
const maxScanDepth = 64

// Token kinds.
const (
	tkStart = iota + 1
	tkEnd
	tkText
)

// token is what next read. name and local alias the input; text aliases the input or the
// scanner's scratch buffer and is valid until the next call.
type token struct {
	kind  int
	name  []byte // start, end: the raw name, prefix included
	local []byte // start: the local part, split as encoding/xml's nsname does
	text  []byte // text: the decoded character data
}

// fail marks the input as one for encoding/xml and returns false.
func (s *scanner) fail() bool {
	s.bad = true
	return false
}

// next reads the next token into t. It returns false at the end of the input (which the
// callers never expect: the document's root element has not ended) or when the input leaves
// the subset; bad is then set.
func (s *scanner) next(t *token) bool {
	if s.bad {
		return false
	}
	if s.needClose {
		s.needClose = false
		top := s.stack[len(s.stack)-1]
		s.stack = s.stack[:len(s.stack)-1]
		t.kind, t.name, t.local = tkEnd, s.b[top.from:top.to], nil
		return true
	}
	for {
		if s.i >= len(s.b) {
			return s.fail()
		}
		if s.b[s.i] != '<' {
			data, ok := s.text(-1, false)
			if !ok {
				return s.fail()
			}
			t.kind, t.text = tkText, data
			return true
		}
		if s.i+1 >= len(s.b) {
			return s.fail()
		}
		switch s.b[s.i+1] {
		case '/':
			return s.endTag(t)
		case '?':
			if !s.procInst() {
				return s.fail()
			}
		case '!':
			if s.i+2 < len(s.b) && s.b[s.i+2] == '[' {
				return s.cdata(t)
			}
			if !s.comment() {
				return s.fail()
			}
		default:
			return s.startTag(t)
		}
	}
}

// startTag reads <name attr="value" ...> or <name .../> at s.i.
func (s *scanner) startTag(t *token) bool {
	s.i++
	name, local, ok := s.nsname()
	if !ok || len(s.stack) >= maxScanDepth {
		return s.fail()
	}
	if s.collect {
		s.decls = s.decls[:0]
	}
	for {
		s.space()
		if s.i >= len(s.b) {
			return s.fail()
		}
		switch s.b[s.i] {
		case '/':
			if s.i+1 >= len(s.b) || s.b[s.i+1] != '>' {
				return s.fail()
			}
			s.i += 2
			s.needClose = true
		case '>':
			s.i++
		default:
			if !s.attribute() {
				return s.fail()
			}
			continue
		}
		break
	}
	s.stack = append(s.stack, name)
	t.kind, t.name, t.local = tkStart, s.b[name.from:name.to], local
	return true
}

// attribute reads name="value" (or 'value') at s.i. Strict encoding/xml requires the = and the
// quotes.
func (s *scanner) attribute() bool {
	name, _, ok := s.nsname()
	if !ok {
		return false
	}
	s.space()
	if s.i >= len(s.b) || s.b[s.i] != '=' {
		return false
	}
	s.i++
	s.space()
	if s.i >= len(s.b) || s.b[s.i] != '"' && s.b[s.i] != '\'' {
		return false
	}
	quote := int(s.b[s.i])
	s.i++
	value, ok := s.text(quote, false)
	if !ok {
		return false
	}
	if s.collect {
		raw := s.b[name.from:name.to]
		switch prefix, local, split := splitName(raw); {
		case !split && string(raw) == "xmlns":
			s.decls = append(s.decls, nsDecl{prefix: "", value: string(value)})
		case split && string(prefix) == "xmlns":
			s.decls = append(s.decls, nsDecl{prefix: string(local), value: string(value)})
		}
	}
	return true
}

// endTag reads </name> at s.i; the name must be that of the innermost open element, which
// is compared in place (a longer or shorter name differs in the byte after it).
func (s *scanner) endTag(t *token) bool {
	if len(s.stack) == 0 {
		return s.fail()
	}
	top := s.stack[len(s.stack)-1]
	name := s.b[top.from:top.to]
	s.i += 2
	if !bytes.HasPrefix(s.b[s.i:], name) {
		return s.fail()
	}
	s.i += len(name)
	s.space()
	if s.i >= len(s.b) || s.b[s.i] != '>' {
		return s.fail()
	}
	s.i++
	s.stack = s.stack[:len(s.stack)-1]
	t.kind, t.name, t.local = tkEnd, name, nil
	return true
}

// procInst reads <?target data?> at s.i. The only xml declaration accepted is the usual one
// at the very start of the document; any other goes to encoding/xml, which checks its
// version and encoding.
func (s *scanner) procInst() bool {
	at := s.i
	s.i += 2
	target, _, ok := s.name()
	if !ok {
		return false
	}
	s.space()
	from := s.i
	var b0 byte
	for {
		if s.i >= len(s.b) {
			return false
		}
		b := s.b[s.i]
		s.i++
		if b0 == '?' && b == '>' {
			break
		}
		b0 = b
	}
	if string(s.b[target.from:target.to]) == "xml" {
		switch string(s.b[from : s.i-2]) {
		case `version="1.0" encoding="UTF-8"`, `version="1.0" encoding="utf-8"`, `version="1.0"`:
			return at == 0
		default:
			return false
		}
	}
	return true
}

// comment reads <!--...--> at s.i, as encoding/xml does: "--" must end the comment. Any other
// <! (a DOCTYPE or other directive) goes to encoding/xml.
func (s *scanner) comment() bool {
	if s.i+3 >= len(s.b) || s.b[s.i+2] != '-' || s.b[s.i+3] != '-' {
		return false
	}
	s.i += 4
	var b0, b1 byte
	for {
		if s.i >= len(s.b) {
			return false
		}
		b := s.b[s.i]
		s.i++
		if b0 == '-' && b1 == '-' {
			return b == '>'
		}
		b0, b1 = b1, b
	}
}

// cdata reads <![CDATA[...]]> at s.i as a text token.
func (s *scanner) cdata(t *token) bool {
	if !bytes.HasPrefix(s.b[s.i:], []byte("<![CDATA[")) {
		return s.fail()
	}
	s.i += len("<![CDATA[")
	data, ok := s.text(-1, true)
	if !ok {
		return s.fail()
	}
	t.kind, t.text = tkText, data
	return true
}
