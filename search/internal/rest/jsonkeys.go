package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// CheckKeys refuses what encoding/json lets through in an object's keys: a key given twice (the
// last would win: {"seats":2,"seats":900} books 900) and a key in another case than the API's
// lower-case names ("SEATS" would fill seats). It looks at data's outermost object only — a
// nested object is checked where it is decoded — and leaves anything that is not a well-formed
// object to the decoder, whose error is the better one. field names a key in errors.
func CheckKeys(data []byte, field func(string) string) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		key, _ := tok.(string)
		switch {
		case seen[key]:
			return InputErr(field(key), "given twice")
		case key != strings.ToLower(key):
			return InputErr(field(key), "unknown field (field names are lower case)")
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil
		}
	}
	return nil
}

// Trailing reports whether dec has anything but white space after the value it decoded.
func Trailing(dec *json.Decoder) bool {
	_, err := dec.Token()
	return !errors.Is(err, io.EOF)
}
