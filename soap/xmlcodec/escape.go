package xmlcodec

import (
	"strconv"
	"unicode/utf8"
)

// Writing XML: tags, and elements holding text escaped as encoding/xml's Encoder escapes it,
// appended to a byte slice. Nothing else is allocated.

// AppendElement appends <name>text</name>, as encoding/xml writes a string field.
func AppendElement(b []byte, name, text string) []byte {
	return AppendEndTag(AppendText(AppendStartTag(b, name), text), name)
}

// AppendIntElement appends <name>v</name>, as encoding/xml writes an int field.
func AppendIntElement(b []byte, name string, v int) []byte {
	return AppendEndTag(strconv.AppendInt(AppendStartTag(b, name), int64(v), 10), name)
}

// AppendBoolElement appends <name>true</name> or <name>false</name>, as encoding/xml writes a
// bool field.
func AppendBoolElement(b []byte, name string, v bool) []byte {
	return AppendEndTag(strconv.AppendBool(AppendStartTag(b, name), v), name)
}

// appendStart appends <name>.
func AppendStartTag(b []byte, name string) []byte {
	b = append(b, '<')
	b = append(b, name...)
	return append(b, '>')
}

// appendEnd appends </name>.
func AppendEndTag(b []byte, name string) []byte {
	b = append(b, "</"...)
	b = append(b, name...)
	return append(b, '>')
}

// AppendOmitEmpty appends a list of strings as encoding/xml writes a []string field tagged
// omitempty: the tag applies to each item, so empty strings are left out.
func AppendOmitEmpty(b []byte, name string, list []string) []byte {
	for _, s := range list {
		if s != "" {
			b = AppendElement(b, name, s)
		}
	}
	return b
}

// AppendText appends s escaped as encoding/xml's Encoder escapes text and attribute values
// (printer.EscapeString): the five markup characters, tab and line ends as references, and
// every byte that is not UTF-8 or not an XML character as U+FFFD.
func AppendText(b []byte, s string) []byte {
	// Most text (codes, instants, prices) needs no escaping: the bytes that surely need none are
	// skipped one table lookup each and appended at once; the general loop takes the rest.
	i := 0
	for i < len(s) && asIs[s[i]] {
		i++
	}
	if i == len(s) {
		return append(b, s...)
	}
	return appendEscaped(append(b, s[:i]...), s[i:])
}

// asIs is true for the bytes AppendText writes as themselves without a look at what follows:
// ASCII from 0x20 on (DEL included, as encoding/xml writes it) but the five markup characters.
var asIs = func() (t [256]bool) {
	for c := range utf8.RuneSelf {
		t[c] = asciiEscape[c] == ""
	}
	return t
}()

// appendEscaped is AppendText's general loop.
func appendEscaped(b []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			esc := asciiEscape[c]
			if esc == "" {
				continue
			}
			b = append(b, s[last:i-1]...)
			b = append(b, esc...)
			last = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r == utf8.RuneError && size == 1 || !inCharRange(r) {
			b = append(b, s[last:i-size]...)
			b = append(b, "\uFFFD"...)
			last = i
		}
	}
	return append(b, s[last:]...)
}

// asciiEscape is what encoding/xml writes for an ASCII byte that is not written as itself.
var asciiEscape = func() (t [utf8.RuneSelf]string) {
	for c := range 0x20 {
		t[c] = "\uFFFD" // control characters are not XML characters
	}
	t['"'], t['\''], t['&'], t['<'], t['>'] = "&#34;", "&#39;", "&amp;", "&lt;", "&gt;"
	t['\t'], t['\n'], t['\r'] = "&#x9;", "&#xA;", "&#xD;"
	return t
}()
