package xmlcodec

import (
	"bytes"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// The lexical pieces of the scanner (scanner.go) but names (names.go): white space and character
// data (text, attribute values, CDATA sections) read as encoding/xml's Decoder reads them.

// space skips XML white space.
func (s *Scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\r', '\n', '\t':
			s.i++
		default:
			return
		}
	}
}

// plainByte is true for the bytes text can alias without a look: ASCII characters that are
// neither markup ('<', '&'), nor part of "]]>", nor control characters.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '<' && c != '&' && c != ']'
	}
	return t
}()

// text reads character data at s.i, as encoding/xml's Decoder.text: up to a '<' (left
// unread) or the end of input for plain text (quote < 0, !cdata), up to the closing quote (read)
// for an attribute value, up to "]]>" (read) in a CDATA section. The result aliases the input
// when nothing had to be replaced, the scratch buffer otherwise.
func (s *Scanner) text(quote int, cdata bool) ([]byte, bool) {
	from := s.i
	i := from
	for i < len(s.b) && plainByte[s.b[i]] && int(s.b[i]) != quote {
		i++
	}
	switch {
	case cdata:
	case quote < 0 && (i == len(s.b) || s.b[i] == '<'):
		s.i = i
		return s.b[from:i], true
	case quote >= 0 && i < len(s.b) && int(s.b[i]) == quote:
		s.i = i + 1
		return s.b[from:i], true
	}
	return s.slowText(quote, cdata)
}

// slowText is text for data that holds references, line ends, "]]" or bytes beyond ASCII: a
// port of encoding/xml's loop.
func (s *Scanner) slowText(quote int, cdata bool) ([]byte, bool) {
	buf := s.buf[:0]
	var b0, b1 byte
	trunc := 0
	for {
		if s.i >= len(s.b) {
			if cdata || quote >= 0 {
				return nil, false
			}
			break
		}
		b := s.b[s.i]
		s.i++
		if quote < 0 && b0 == ']' && b1 == ']' && b == '>' {
			if !cdata {
				return nil, false // "]]>" outside CDATA
			}
			trunc = 2
			break
		}
		if b == '<' && !cdata {
			if quote >= 0 {
				return nil, false
			}
			s.i--
			break
		}
		if quote >= 0 && int(b) == quote {
			break
		}
		if b == '&' && !cdata {
			var ok bool
			if buf, ok = s.reference(buf); !ok {
				return nil, false
			}
			b0, b1 = 0, 0
			continue
		}
		switch {
		case b == '\r':
			buf = append(buf, '\n')
		case b1 == '\r' && b == '\n':
		default:
			buf = append(buf, b)
		}
		b0, b1 = b1, b
	}
	s.buf = buf
	data := buf[:len(buf)-trunc]
	return data, validText(data)
}

// reference reads an entity or character reference after its '&' and appends its text. Strict
// encoding/xml knows the five predefined entities and decimal (&#65;) or hexadecimal (&#x41;)
// references, and refuses anything else.
func (s *Scanner) reference(buf []byte) ([]byte, bool) {
	rest := s.b[s.i:]
	end := bytes.IndexByte(rest, ';')
	if end < 0 {
		return nil, false
	}
	ref := rest[:end]
	if len(ref) > 0 && ref[0] == '#' {
		digits, base := ref[1:], 10
		if len(digits) > 0 && digits[0] == 'x' {
			digits, base = digits[1:], 16
		}
		for _, c := range digits {
			if !('0' <= c && c <= '9' || base == 16 && ('a' <= c && c <= 'f' || 'A' <= c && c <= 'F')) {
				return nil, false
			}
		}
		n, err := strconv.ParseUint(string(digits), base, 64)
		if err != nil || n > unicode.MaxRune {
			return nil, false
		}
		s.i += end + 1
		return append(buf, string(rune(n))...), true
	}
	var r byte
	switch string(ref) {
	case "lt":
		r = '<'
	case "gt":
		r = '>'
	case "amp":
		r = '&'
	case "apos":
		r = '\''
	case "quot":
		r = '"'
	default:
		return nil, false
	}
	s.i += end + 1
	return append(buf, r), true
}

// validText reports whether data is UTF-8 made of characters XML allows, which encoding/xml
// checks of every piece of text.
func validText(data []byte) bool {
	for i := 0; i < len(data); {
		c := data[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 || !inCharRange(r) {
			return false
		}
		i += size
	}
	return true
}

// inCharRange is encoding/xml's isInCharacterRange: the Char production of XML 1.0.
func inCharRange(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}
