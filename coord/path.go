package coord

import (
	"fmt"
	"strings"
)

// A node's etcd key is its path, byte for byte, so that
// `etcdctl get --prefix /alliances/` shows the tree as written. The children
// of /a are the keys under the prefix "/a/" whose remainder has no further
// "/"; deeper descendants share the range read and are filtered out.

// checkPath reports whether p is an absolute path: "/" followed by one or
// more non-empty segments separated by single slashes, none "." or "..",
// with no trailing "/". The root "/" is accepted only when allowRoot is set
// (it can be listed and watched but holds no value).
func checkPath(p string, allowRoot bool) error {
	if p == "/" {
		if allowRoot {
			return nil
		}
		return fmt.Errorf("%w %q: the root holds no value", ErrBadPath, p)
	}
	if p == "" {
		return fmt.Errorf("%w %q: empty", ErrBadPath, p)
	}
	if p[0] != '/' {
		return fmt.Errorf("%w %q: not absolute", ErrBadPath, p)
	}
	if strings.HasSuffix(p, "/") {
		return fmt.Errorf("%w %q: trailing slash", ErrBadPath, p)
	}
	for _, seg := range strings.Split(p[1:], "/") {
		switch seg {
		case "":
			return fmt.Errorf("%w %q: empty segment", ErrBadPath, p)
		case ".", "..":
			return fmt.Errorf("%w %q: %q segment", ErrBadPath, p, seg)
		}
	}
	return nil
}

// childPrefix is the key prefix of p's children.
func childPrefix(p string) string {
	if p == "/" {
		return "/"
	}
	return p + "/"
}

// childName returns the child name of key under prefix, and false when key
// is a deeper descendant (or not under prefix at all).
func childName(prefix, key string) (string, bool) {
	if !strings.HasPrefix(key, prefix) {
		return "", false
	}
	name := key[len(prefix):]
	if name == "" || strings.Contains(name, "/") {
		return "", false
	}
	return name, true
}

// baseName is the last segment of an absolute path.
func baseName(p string) string {
	return p[strings.LastIndexByte(p, '/')+1:]
}

// JoinPath joins a parent path and child names with "/". It does not
// validate; the Tree does when the path is used.
func JoinPath(parent string, names ...string) string {
	p := strings.TrimSuffix(parent, "/")
	for _, n := range names {
		p += "/" + n
	}
	return p
}
