package xmlcodec

// Reading a child written plainly, the way this project's encoders write every field: the
// start tag <name> with no prefix, attribute or space, plain text (bytes of plainByte:
// printable ASCII but '<', '&' and ']'), and the end tag </name>. A reader that expects its
// fields in a known order asks for each by name, and reads the element's general way
// (NextChild) from the first that is not there plainly: PlainText, PlainUniqueText and PlainInt read nothing when they return false.
// When they do read a child, it is exactly what NextChild followed by Text, UniqueText or Int
// would have read, without tokenizing it.

// plainChild reads <name>text</name> at the read position and returns text, which aliases the
// input; it reads nothing and returns false for anything else.
func (s *Scanner) plainChild(name string) ([]byte, bool) {
	if s.bad || s.needClose || len(s.stack) >= maxDepth {
		return nil, false // NextChild would return an end, or fail
	}
	b, i := s.b, s.i
	open := i + 1 + len(name)
	if open >= len(b) || b[i] != '<' || b[open] != '>' || string(b[i+1:open]) != name {
		return nil, false
	}
	text, next, ok := plainTextAndEnd(b, open+1, name)
	if !ok {
		return nil, false
	}
	s.i = next
	return text, true
}

// plainTextAndEnd reads, from b[from:], plain text then the end tag </name> with no space in
// it: it returns the text and where the tag ends, or false for anything else.
func plainTextAndEnd[N string | []byte](b []byte, from int, name N) (text []byte, next int, ok bool) {
	j := from
	for j < len(b) && plainByte[b[j]] {
		j++
	}
	end := j + 2 + len(name)
	if end >= len(b) || b[j] != '<' || b[j+1] != '/' || b[end] != '>' || string(b[j+2:end]) != string(name) {
		return nil, 0, false
	}
	return b[from:j], end + 1, true
}

// PlainText reads the child <name> written plainly, and its text as Text reads it.
func (s *Scanner) PlainText(name string) (string, bool) {
	b, ok := s.plainChild(name)
	if !ok {
		return "", false
	}
	return s.strs.get(b), true
}

// PlainUniqueText reads the child <name> written plainly, and its text as UniqueText reads it.
func (s *Scanner) PlainUniqueText(name string) (string, bool) {
	b, ok := s.plainChild(name)
	if !ok {
		return "", false
	}
	return string(b), true
}

// PlainInt reads the child <name> written plainly, and its text as Int reads it: a text that
// does not parse fails the scanner (true is still returned: the child was read).
func (s *Scanner) PlainInt(name string) (int, bool) {
	b, ok := s.plainChild(name)
	if !ok {
		return 0, false
	}
	return s.intOf(b), true
}
