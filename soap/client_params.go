package soap

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/tiaguinho/gosoap"
)

// toParams turns a request struct into gosoap's ordered parameters: one entry per field, in
// field order (the schema's sequence), named by the field's xml tag, a slice as one entry per
// item, an empty omitempty field left out, a struct as its own ordered parameters (nested
// elements). Every scalar is sent as a string: gosoap sends other kinds as empty elements.
func toParams(req any) (gosoap.ArrayParams, error) {
	v := reflect.Indirect(reflect.ValueOf(req))
	if v.Kind() != reflect.Struct {
		return nil, fmt.Errorf("request %T: want a struct", req)
	}
	var params gosoap.ArrayParams
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if f.Name == "XMLName" || !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("xml"), ",")
		if name == "" {
			name = f.Name
		}
		omitEmpty := strings.Contains(opts, "omitempty")
		fv := v.Field(i)
		if fv.Kind() == reflect.Slice {
			for j := range fv.Len() {
				s, err := param(fv.Index(j))
				if err != nil {
					return nil, fmt.Errorf("request %T field %s: %w", req, f.Name, err)
				}
				params = append(params, [2]any{name, s})
			}
			continue
		}
		if omitEmpty && fv.IsZero() {
			continue
		}
		s, err := param(fv)
		if err != nil {
			return nil, fmt.Errorf("request %T field %s: %w", req, f.Name, err)
		}
		params = append(params, [2]any{name, s})
	}
	return params, nil
}

// param is one parameter's value: a string, or the nested parameters of a struct.
func param(v reflect.Value) (any, error) {
	if v.Kind() == reflect.Struct {
		return toParams(v.Interface())
	}
	return scalar(v)
}

func scalar(v reflect.Value) (string, error) {
	switch v.Kind() {
	case reflect.String:
		return v.String(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10), nil
	case reflect.Bool:
		return strconv.FormatBool(v.Bool()), nil
	default:
		return "", fmt.Errorf("kind %s cannot be sent through gosoap", v.Kind())
	}
}
