package wsdl

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
)

// root returns the document's root element, skipping whitespace, comments and processing
// instructions before it, as package soap reads an envelope: text and DTDs are refused.
func root(d *xml.Decoder) (xml.StartElement, error) {
	for {
		tok, err := d.Token()
		if err != nil {
			return xml.StartElement{}, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			return t, nil
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				return xml.StartElement{}, fmt.Errorf("unexpected text %q before the root element", shorten(string(t)))
			}
		case xml.Directive:
			return xml.StartElement{}, errors.New("DTDs and directives are not allowed in a WSDL document")
		}
	}
}

// shorten cuts s for an error message.
func shorten(s string) string {
	const limit = 40
	if len(s) <= limit {
		return s
	}
	return s[:limit] + "…"
}
