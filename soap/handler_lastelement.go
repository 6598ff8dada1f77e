package soap

import (
	"encoding/xml"
	"errors"
	"strconv"
)

// lastElement passes a decoder's tokens through and remembers the element being read, so that a
// value encoding/xml cannot convert ("abc" for an xsd:int) is reported naming its element —
// encoding/xml's own error says only that some number did not parse.
type lastElement struct {
	d    *xml.Decoder
	name string
}

func (l *lastElement) Token() (xml.Token, error) {
	tok, err := l.d.Token()
	if se, ok := tok.(xml.StartElement); ok {
		l.name = se.Name.Local
	}
	return tok, err
}

// conversionFault names the element whose value did not convert, or is nil for other errors.
func (l *lastElement) conversionFault(err error) *Fault { return conversionFault(l.name, err) }

// conversionFault names element name as the one whose value did not convert, or is nil for
// other errors.
func conversionFault(name string, err error) *Fault {
	var num *strconv.NumError
	if !errors.As(err, &num) || name == "" {
		return nil
	}
	kind := "a number"
	if num.Func == "ParseBool" {
		kind = "true or false"
	}
	v := num.Num
	if len(v) > 20 {
		v = v[:20] + "…"
	}
	return ClientFault("%s: %q is not %s", name, v, kind)
}
