package xmlcodec

import (
	"bytes"
	"encoding/xml"
	"unicode/utf8"
)

// Names: element and attribute names as encoding/xml's Decoder splits them, and the namespace
// declarations the scanner records for StandaloneName.

// name reads an XML name at s.i. Names are ASCII here: a byte beyond ASCII goes to
// encoding/xml, which checks names against Unicode's tables. colons counts the colons.
func (s *Scanner) name() (n span, colons int, ok bool) {
	from := s.i
	for s.i < len(s.b) && nameByte[s.b[s.i]] {
		if s.b[s.i] == ':' {
			colons++
		}
		s.i++
	}
	if s.i == from || s.i < len(s.b) && s.b[s.i] >= utf8.RuneSelf {
		return span{}, 0, false
	}
	switch c := s.b[from]; {
	case c == '-' || c == '.' || '0' <= c && c <= '9': // not a first character of a name
		return span{}, 0, false
	}
	return span{from, s.i}, colons, true
}

// nsname reads a name that may carry a prefix: encoding/xml refuses more than one colon.
// Without a colon, the whole name is local.
func (s *Scanner) nsname() (n span, local []byte, ok bool) {
	n, colons, ok := s.name()
	raw := s.b[n.from:n.to]
	switch {
	case !ok || colons > 1:
		return span{}, nil, false
	case colons == 0:
		return n, raw, true
	default:
		return n, localName(raw), true
	}
}

// splitName splits prefix:local as encoding/xml does; a name with an empty prefix or local
// part is all local.
func splitName(raw []byte) (prefix, local []byte, split bool) {
	prefix, local, split = bytes.Cut(raw, []byte{':'})
	if !split || len(prefix) == 0 || len(local) == 0 {
		return nil, raw, false
	}
	return prefix, local, true
}

func localName(raw []byte) []byte {
	_, local, _ := splitName(raw)
	return local
}

// nameByte is encoding/xml's isNameByte for ASCII.
var nameByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == ':' || c == '.' || c == '-'
	}
	return t
}()

// attribute reads name="value" (or 'value') at s.i. Strict encoding/xml requires the = and the
// quotes.
func (s *Scanner) attribute() bool {
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

// CollectNamespaces makes the scanner record, while on, the namespace declarations of each start
// element it reads, which StandaloneName needs.
func (s *Scanner) CollectNamespaces(on bool) { s.collect = on }

// StandaloneName is the name of the start element t just read, as encoding/xml names it when it
// decodes that element on its own — as a parent's inner XML, say — so that only the element's
// own namespace declarations count. The scanner must have been collecting namespaces
// (CollectNamespaces) when it read t.
func (s *Scanner) StandaloneName(t *Token) xml.Name {
	var n xml.Name
	if prefix, local, ok := splitName(t.Name); ok {
		n = xml.Name{Space: string(prefix), Local: string(local)}
	} else {
		n = xml.Name{Local: string(t.Name)}
	}
	switch {
	case n.Space == "xmlns", n.Space == "" && n.Local == "xmlns":
		return n
	case n.Space == "xml":
		n.Space = "http://www.w3.org/XML/1998/namespace"
		return n
	}
	// As encoding/xml's translate: the element's declaration of its prefix (the last one, if
	// it declares it twice), else the prefix itself, and no namespace for no prefix.
	prefix := n.Space
	for _, d := range s.decls {
		if d.prefix == prefix {
			n.Space = d.value
		}
	}
	return n
}
