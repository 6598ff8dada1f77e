package xmlcodec

import "bytes"

// Scanner tokenizes an XML document held in memory. It is a port of encoding/xml's tokenizer
// (Decoder.rawToken and Token in Strict mode, Go 1.26) restricted to a subset: ASCII names, the
// XML declaration as servers write it, no DTD or other directive, at most maxDepth open
// elements. Whatever leaves the subset, and whatever encoding/xml would refuse, stops the
// scanner: Failed then reports true, and the caller hands the whole input to encoding/xml,
// which gives the value or the error the input deserves. So the scanner never explains an
// error: it only has to be right when it accepts.
//
// The tokens are those of encoding/xml's Token: start and end elements (a self-closing element
// is both, and an end must repeat its start's name, prefix included; end tokens carry no local
// name, which no reader needs), and character data (text and CDATA sections, entities and
// character references replaced, line ends normalized, each piece checked for UTF-8 and for
// XML's character range). Comments and processing instructions are checked and dropped, as
// Unmarshal ignores them.
//
// The zero Scanner is ready for Reset. A Scanner keeps its buffers and the strings it interned
// from one document to the next, so callers pool them.
type Scanner struct {
	b         []byte
	i         int      // next byte to read
	bad       bool     // outside the subset, or malformed: the caller falls back to encoding/xml
	stack     []span   // raw names of the open elements
	needClose bool     // the last start element was self-closing: Next returns its end
	collect   bool     // record the namespace declarations of start elements in decls
	decls     []nsDecl // when collect is set: the last start element's declarations
	buf       []byte   // decoded text that could not alias b
	acc       []byte   // a leaf's text in several pieces
	strs      internCache
}

// span is a range of the input, [from, to).
type span struct{ from, to int }

// nsDecl is a namespace declaration: xmlns="value" (prefix "") or xmlns:prefix="value".
type nsDecl struct{ prefix, value string }

// maxDepth bounds element nesting; deeper documents go to encoding/xml.
const maxDepth = 64

// Kind is the kind of a Token.
type Kind int

// Token kinds, named after encoding/xml's tokens.
const (
	StartElement Kind = iota + 1
	EndElement
	CharData
)

// Token is what Next read. Name and Local alias the input; Text aliases the input or the
// scanner's scratch buffer and is valid until the next call.
type Token struct {
	Kind  Kind
	Name  []byte // StartElement, EndElement: the raw name, prefix included
	Local []byte // StartElement: the local part, split as encoding/xml's nsname does
	Text  []byte // CharData: the decoded character data
}

// Reset makes s read doc from its start, keeping its buffers (unless they grew large) and its
// interned strings. Reset(nil) lets go of the last document.
func (s *Scanner) Reset(doc []byte) {
	s.b, s.i, s.bad, s.needClose, s.collect = doc, 0, false, false, false
	s.stack, s.decls = s.stack[:0], s.decls[:0]
	if cap(s.buf) > maxKept {
		s.buf = nil
	}
	if cap(s.acc) > maxKept {
		s.acc = nil
	}
}

// Remaining is the bytes of the document not read yet.
func (s *Scanner) Remaining() int { return len(s.b) - s.i }

// maxKept bounds the scratch buffers a Scanner keeps from one document to the next.
const maxKept = 64 << 10

// Failed reports whether the scanner has stopped: the input left the subset or is malformed,
// and only encoding/xml can say what it holds.
func (s *Scanner) Failed() bool { return s.bad }

// fail marks the input as one for encoding/xml and returns false.
func (s *Scanner) fail() bool {
	s.bad = true
	return false
}

// Next reads the next token into t. It returns false at the end of the input (which a reader
// never expects: the document's root element has not ended) or when the input leaves the
// subset; Failed then reports true.
func (s *Scanner) Next(t *Token) bool {
	if s.bad {
		return false
	}
	if s.needClose {
		s.needClose = false
		top := s.stack[len(s.stack)-1]
		s.stack = s.stack[:len(s.stack)-1]
		t.Kind, t.Name, t.Local = EndElement, s.b[top.from:top.to], nil
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
			t.Kind, t.Text = CharData, data
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
func (s *Scanner) startTag(t *Token) bool {
	s.i++
	name, local, ok := s.nsname()
	if !ok || len(s.stack) >= maxDepth {
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
	t.Kind, t.Name, t.Local = StartElement, s.b[name.from:name.to], local
	return true
}

// endTag reads </name> at s.i; the name must be that of the innermost open element, which
// is compared in place (a longer or shorter name differs in the byte after it).
func (s *Scanner) endTag(t *Token) bool {
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
	t.Kind, t.Name, t.Local = EndElement, name, nil
	return true
}

// procInst reads <?target data?> at s.i. The only xml declaration accepted is the usual one
// at the very start of the document; any other goes to encoding/xml, which checks its
// version and encoding.
func (s *Scanner) procInst() bool {
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
func (s *Scanner) comment() bool {
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

// cdata reads <![CDATA[...]]> at s.i as character data.
func (s *Scanner) cdata(t *Token) bool {
	if !bytes.HasPrefix(s.b[s.i:], []byte("<![CDATA[")) {
		return s.fail()
	}
	s.i += len("<![CDATA[")
	data, ok := s.text(-1, true)
	if !ok {
		return s.fail()
	}
	t.Kind, t.Text = CharData, data
	return true
}
