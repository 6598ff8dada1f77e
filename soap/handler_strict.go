package soap

import (
	"encoding"
	"encoding/xml"
	"io"
	"reflect"
	"strings"
	"sync"
)

// encoding/xml decodes a request leniently: an element given twice overwrites the first
// (<Seats>1</Seats><Seats>999</Seats> reserves 999), an unknown element is skipped, and any
// namespace will do. A request is read strictly instead: its elements are checked against the
// request type's shape as they are read — each known, a single one not repeated, text where a
// value is wanted, no deeper than the type goes — and the operation element is in this
// service's namespace (or none). Only then is it decoded, from the tokens read.

// shape is what an element of a request type may hold: its child elements by local name; a
// leaf (a value) holds text only.
type shape struct {
	children map[string]childShape
	open     bool // a field takes any content (,any, ,innerxml, an Unmarshaler): not checked
}

type childShape struct {
	repeat bool   // a slice: the element may repeat
	sub    *shape // the element's own shape, when it is a struct; nil for a value (text only)
}

var shapes sync.Map // reflect.Type → *shape

var unmarshalerType = reflect.TypeFor[xml.Unmarshaler]()
var textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()

// shapeOf is the shape of struct type t, read from its xml tags.
func shapeOf(t reflect.Type) *shape {
	if s, ok := shapes.Load(t); ok {
		return s.(*shape)
	}
	s := &shape{children: map[string]childShape{}}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Name == "XMLName" || !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("xml"), ",")
		if name == "-" || strings.Contains(opts, "attr") || strings.Contains(opts, "chardata") || strings.Contains(opts, "comment") {
			continue
		}
		if strings.Contains(opts, "any") || strings.Contains(opts, "innerxml") || strings.Contains(name, ">") {
			s.open = true
			continue
		}
		if name == "" {
			name = f.Name
		}
		ft := f.Type
		c := childShape{}
		if ft.Kind() == reflect.Slice && ft.Elem().Kind() != reflect.Uint8 {
			c.repeat, ft = true, ft.Elem()
		}
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch {
		case reflect.PointerTo(ft).Implements(unmarshalerType):
			c.sub = &shape{open: true}
		case ft.Kind() == reflect.Struct && !reflect.PointerTo(ft).Implements(textUnmarshalerType):
			c.sub = shapeOf(ft)
		}
		s.children[name] = c
	}
	shapes.Store(t, s)
	return s
}

// maxRequestDepth bounds how deep a request's elements may nest below the operation element,
// whatever its type allows.
const maxRequestDepth = 16

// readStrict reads the operation element start from d, checking it against s, and returns its
// tokens (start's own included) to decode from; a *Fault names what is wrong.
func readStrict(d *xml.Decoder, start xml.StartElement, s *shape) ([]xml.Token, error) {
	op := start.Name.Local
	if ns := start.Name.Space; ns != "" && ns != Namespace {
		return nil, ClientFault("<%s> is in namespace %q, want %q", op, ns, Namespace)
	}
	type level struct {
		name  string
		shape *shape // nil: a leaf
		open  bool
		seen  map[string]bool
	}
	stack := []level{{name: op, shape: s, open: s.open, seen: map[string]bool{}}}
	toks := []xml.Token{start.Copy()}
	for len(stack) > 0 {
		tok, err := d.Token()
		if err != nil {
			return nil, err
		}
		toks = append(toks, xml.CopyToken(tok))
		top := &stack[len(stack)-1]
		switch t := tok.(type) {
		case xml.StartElement:
			name := t.Name.Local
			path := top.name + "><" + name
			switch {
			case len(stack) > maxRequestDepth:
				return nil, ClientFault("<%s>: elements nested more than %d deep", op, maxRequestDepth)
			case top.open:
				stack = append(stack, level{name: path, open: true})
				continue
			case top.shape == nil:
				return nil, ClientFault("<%s> holds an element <%s>; want a value", top.name, name)
			}
			c, known := top.shape.children[name]
			switch {
			case !known:
				return nil, ClientFault("<%s>: unknown element <%s>", top.name, name)
			case top.seen[name] && !c.repeat:
				return nil, ClientFault("<%s> given twice", path)
			}
			top.seen[name] = true
			next := level{name: path, seen: map[string]bool{}}
			if c.sub != nil {
				next.shape, next.open = c.sub, c.sub.open
			}
			stack = append(stack, next)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
	return toks, nil
}

// tokenReplay gives back tokens read before, for a decoder, and remembers the element being
// read (for conversionFault).
type tokenReplay struct {
	toks []xml.Token
	name string
}

func (r *tokenReplay) Token() (xml.Token, error) {
	if len(r.toks) == 0 {
		return nil, io.EOF
	}
	t := r.toks[0]
	r.toks = r.toks[1:]
	if se, ok := t.(xml.StartElement); ok {
		r.name = se.Name.Local
	}
	return t, nil
}
