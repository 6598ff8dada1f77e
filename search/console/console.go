// Package console is the search server's web console: one page (index.html) with its script
// (app.js) and style sheet (style.css), embedded in the binary and served at GET / and
// /console/{file} (serve.go), and the live picture the page draws every known alliance from,
// GET /Services/FlightsSearch/alliances (live.go asks the machines, picture.go assembles what
// they said). The page searches and books through the server's REST API.
//
// The script is plain JavaScript, run as written: no framework, no bundler, no build step. The
// page is a form, two tables and a poll loop, which the DOM API does in a few hundred lines; a
// framework would add a toolchain to the build, a dependency to keep current and tens of
// kilobytes to every page load, for no behaviour a user would notice. What is embedded is
// exactly what the browser runs, so a reviewer reads the code that ships.
//
// The files must not fetch anything from outside the search server (no CDN, no web fonts, no
// absolute URLs): the machines that run it have no other network, and the server's
// Content-Security-Policy refuses it anyway. The package must not search, book or change a
// registration: it reads the registrations it is given and the machines' /status and /healthz,
// within its own deadlines, and nothing else.
package console

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"path"
)

//go:embed index.html app.js style.css
var files embed.FS

// Asset is one embedded file, ready to serve.
type Asset struct {
	Name        string
	Body        []byte
	ContentType string
	ETag        string // a strong validator of Body
}

var assets = load()

func load() map[string]Asset {
	types := map[string]string{
		".html": "text/html; charset=utf-8",
		".js":   "text/javascript; charset=utf-8",
		".css":  "text/css; charset=utf-8",
	}
	entries, err := files.ReadDir(".")
	if err != nil {
		panic(err) // the embedded directory is part of the binary
	}
	out := map[string]Asset{}
	for _, e := range entries {
		body, err := files.ReadFile(e.Name())
		if err != nil {
			panic(err)
		}
		sum := sha256.Sum256(body)
		out[e.Name()] = Asset{Name: e.Name(), Body: body, ContentType: types[path.Ext(e.Name())],
			ETag: `"` + hex.EncodeToString(sum[:8]) + `"`}
	}
	return out
}

// Page is index.html, the page served at /.
func Page() Asset { return assets["index.html"] }

// Lookup returns the embedded file name (app.js, style.css, …); ok is false when there is none.
func Lookup(name string) (a Asset, ok bool) {
	a, ok = assets[name]
	return a, ok
}

// Names lists the embedded files.
func Names() []string {
	out := make([]string, 0, len(assets))
	for n := range assets {
		out = append(out, n)
	}
	return out
}
