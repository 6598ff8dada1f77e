package soap

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"strings"
)

// Leaf values for the fast decoder: strings, ints and bools read from an element's text as
// encoding/xml's Unmarshal reads them.

// leaf reads the rest of the element just started as encoding/xml fills a string: the
// concatenation of its own character data, nested elements skipped. The result is valid until
// the next call.
func (s *scanner) leaf() []byte {
	if text, ok := s.plainLeaf(); ok {
		return text
	}
	var t token
	var out []byte
	inAcc := false
	for s.next(&t) {
		switch t.kind {
		case tkEnd:
			return out
		case tkText:
			switch {
			case out == nil && bytes.HasPrefix(s.b[s.i:], endTagOpen):
				// The usual case: one piece, then the end tag, which leaves the scratch buffer
				// (where the piece may be) alone.
				out = t.text
			case !inAcc:
				s.acc = append(append(s.acc[:0], out...), t.text...)
				out, inAcc = s.acc, true
			default:
				s.acc = append(s.acc, t.text...)
				out = s.acc
			}
		case tkStart:
			s.skip()
		}
	}
	return nil
}

var endTagOpen = []byte("</")

// plainLeaf is leaf for the usual element: plain text, then the element's end tag with no
// space in it, which it reads in place; anything else is left to the general loop.
func (s *scanner) plainLeaf() ([]byte, bool) {
	if s.needClose || s.bad {
		return nil, false
	}
	i := s.i
	for i < len(s.b) && plainByte[s.b[i]] {
		i++
	}
	top := s.stack[len(s.stack)-1]
	name := s.b[top.from:top.to]
	end := i + 2 + len(name)
	if end >= len(s.b) || s.b[i] != '<' || s.b[i+1] != '/' || s.b[end] != '>' || !bytes.Equal(s.b[i+2:end], name) {
		return nil, false
	}
	text := s.b[s.i:i]
	s.i = end + 1
	s.stack = s.stack[:len(s.stack)-1]
	return text, true
}

func (s *scanner) str() string { return s.strs.get(s.leaf()) }

// integer reads an int as encoding/xml does: empty is 0, else strconv.ParseInt of the trimmed
// text; a value that does not parse is encoding/xml's error to report.
func (s *scanner) integer() int {
	b := s.leaf()
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

// boolean reads a bool as encoding/xml does: empty is false, else strconv.ParseBool of the
// trimmed text.
func (s *scanner) boolean() bool {
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

// internCache shares the strings of one decoder's recent answers: codes, airports, times and
// prices repeat across legs. It is direct-mapped: a slot holds the last string hashed to it.
type internCache [1 << internBits]string

const internBits = 10

func (c *internCache) get(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > 32 {
		return string(b)
	}
	// A hash of the length and of up to three 8-byte words: the first, the middle and the last.
	h := uint64(len(b))
	if len(b) >= 8 {
		h ^= binary.LittleEndian.Uint64(b) ^ binary.LittleEndian.Uint64(b[len(b)-8:])*0x9E3779B97F4A7C15
		if len(b) > 16 {
			h ^= binary.LittleEndian.Uint64(b[len(b)/2-4:]) * 0xC2B2AE3D27D4EB4F
		}
	} else {
		for _, x := range b {
			h = h<<8 | uint64(x)
		}
	}
	h *= 0x9E3779B97F4A7C15
	slot := &c[h>>(64-internBits)]
	if *slot != string(b) {
		*slot = string(b)
	}
	return *slot
}
