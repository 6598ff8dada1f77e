package rest

import (
	"net/url"
	"strings"
)

// ParseRawQuery is url.ParseQuery (the same pairs, the same strictness: a semicolon is no
// separator, a bad escape no value) whose errors name the parameter they are in, as every other
// answer to bad input does; url.ParseQuery's name none ("invalid semicolon separator in query").
func ParseRawQuery(raw string) (url.Values, error) {
	v := url.Values{}
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" {
			continue
		}
		key, value, _ := strings.Cut(pair, "=")
		name, err := url.QueryUnescape(key)
		if err != nil {
			return nil, InputErr("query string", "parameter name %q: %v", Clip(key), err)
		}
		if strings.Contains(pair, ";") {
			return nil, InputErr(name, "%q holds a semicolon: parameters are separated by &", Clip(pair))
		}
		if value, err = url.QueryUnescape(value); err != nil {
			return nil, InputErr(name, "%v", err)
		}
		v[name] = append(v[name], value)
	}
	return v, nil
}
