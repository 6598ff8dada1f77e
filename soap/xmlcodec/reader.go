package xmlcodec

import (
	"bytes"
	"strconv"
	"strings"
)

// Reading an element's content as encoding/xml's Unmarshal reads it into a field: its children
// one by one, or its text as a string, an int or a bool.

// NextChild reads up to the next child element of the element being read and reports whether
// there is one (its start is in t); it returns false at the element's end, which it reads, or
// when Next does. Character data between the children is dropped, as Unmarshal drops it for a
// struct without a chardata field.
func (s *Scanner) NextChild(t *Token) bool {
	for s.Next(t) {
		switch t.Kind {
		case StartElement:
			return true
		case EndElement:
			return false
		}
	}
	return false
}

// Skip reads the rest of the element just started, through its end.
func (s *Scanner) Skip() {
	depth := 0
	var t Token
	for s.Next(&t) {
		switch t.Kind {
		case StartElement:
			depth++
		case EndElement:
			if depth == 0 {
				return
			}
			depth--
		}
	}
}

// leaf reads the rest of the element just started as encoding/xml fills a string: the
// concatenation of its own character data, nested elements skipped. The result is valid until
// the next call.
func (s *Scanner) leaf() []byte {
	if text, ok := s.plainLeaf(); ok {
		return text
	}
	var t Token
	var out []byte
	inAcc := false
	for s.Next(&t) {
		switch t.Kind {
		case EndElement:
			return out
		case CharData:
			switch {
			case out == nil && bytes.HasPrefix(s.b[s.i:], endTagOpen):
				// The usual case: one piece, then the end tag, which leaves the scratch buffer
				// (where the piece may be) alone.
				out = t.Text
			case !inAcc:
				s.acc = append(append(s.acc[:0], out...), t.Text...)
				out, inAcc = s.acc, true
			default:
				s.acc = append(s.acc, t.Text...)
				out = s.acc
			}
		case StartElement:
			s.Skip()
		}
	}
	return nil
}

var endTagOpen = []byte("</")

// plainLeaf is leaf for the usual element: plain text, then the element's end tag with no
// space in it, which it reads in place; anything else is left to the general loop.
func (s *Scanner) plainLeaf() ([]byte, bool) {
	if s.needClose || s.bad {
		return nil, false
	}
	top := s.stack[len(s.stack)-1]
	text, next, ok := plainTextAndEnd(s.b, s.i, s.b[top.from:top.to])
	if !ok {
		return nil, false
	}
	s.i = next
	s.stack = s.stack[:len(s.stack)-1]
	return text, true
}

// Text reads the rest of the element just started as Unmarshal fills a string. Strings that
// recur across documents (codes, dates, prices) are shared rather than allocated again.
func (s *Scanner) Text() string { return s.strs.get(s.leaf()) }

// UniqueText is Text for a value that seldom recurs within a document (a flight number among a
// holder's thousand flights): allocated, not looked up among the shared strings, where it
// would only push out the values that do recur.
func (s *Scanner) UniqueText() string { return string(s.leaf()) }

// Int reads the rest of the element just started as Unmarshal fills an int: empty is 0, else
// strconv.ParseInt of the trimmed text; a value that does not parse fails the scanner, as it is
// encoding/xml's error to report.
func (s *Scanner) Int() int { return s.intOf(s.leaf()) }

// intOf is Int for the text b of an element already read.
func (s *Scanner) intOf(b []byte) int {
	if len(b) == 0 || s.bad {
		return 0
	}
	if n, ok := smallDecimal(b); ok {
		return n
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, strconv.IntSize)
	if err != nil {
		s.fail()
	}
	return int(n)
}

// smallDecimal parses 1 to 18 ASCII digits, which cannot overflow an int64.
func smallDecimal(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 18 || strconv.IntSize < 64 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// Bool reads the rest of the element just started as Unmarshal fills a bool: empty is false,
// else strconv.ParseBool of the trimmed text, failing the scanner when it does not parse.
func (s *Scanner) Bool() bool {
	b := s.leaf()
	switch string(b) {
	case "", "false":
		return false
	case "true":
		return true
	}
	v, err := strconv.ParseBool(strings.TrimSpace(string(b)))
	if err != nil {
		s.fail()
	}
	return v
}
