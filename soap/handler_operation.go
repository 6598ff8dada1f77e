package soap

import (
	"context"
	"encoding/xml"
	"reflect"
)

// Operation is one SOAP operation of a Service, made with Op.
type Operation struct {
	name string
	// decode reads the request element and returns the call to make with it; decoding is
	// separate from calling so that nothing runs before the whole envelope has been read.
	decode func(d *xml.Decoder, start *xml.StartElement) (func(ctx context.Context) (any, error), error)
}

// Op makes the operation name (the request element's local name) from a typed function. The
// function gets the HTTP request's context and the decoded request; what it returns is encoded
// as the element name+"Response". Returning a *Fault answers the caller with that fault; any
// other error becomes a Server fault that does not reveal the error's text.
func Op[Req, Resp any](name string, fn func(ctx context.Context, req *Req) (*Resp, error)) Operation {
	return Operation{
		name: name,
		decode: func(d *xml.Decoder, start *xml.StartElement) (func(ctx context.Context) (any, error), error) {
			toks, err := readStrict(d, *start, shapeOf(reflect.TypeFor[Req]()))
			if err != nil {
				return nil, err
			}
			replay := &tokenReplay{toks: toks} // the start element first: the decoder checks nesting
			req := new(Req)
			if err := xml.NewTokenDecoder(replay).DecodeElement(req, nil); err != nil {
				if f := conversionFault(replay.name, err); f != nil {
					return nil, f
				}
				return nil, err
			}
			return func(ctx context.Context) (any, error) {
				resp, err := fn(ctx, req)
				if err != nil {
					return nil, err
				}
				if resp == nil {
					return nil, errNoResponse
				}
				return resp, nil
			}, nil
		},
	}
}

// Name is the operation's name.
func (o Operation) Name() string { return o.name }
