package console

import (
	"bytes"
	"fmt"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"flightalliance/search/internal/rest"
)

// consoleCSP keeps the console to its own server: scripts, styles and requests may go to the
// search server only, nothing may frame it, and no other page's form may post through it. The
// icon is the empty data: URL the page names, so that the browser asks for no /favicon.ico.
const consoleCSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; " +
	"img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// ServePage answers GET / with the web console (any query string is the page's own: a
// search the page runs on load).
func ServePage(w http.ResponseWriter, r *http.Request) {
	serveAsset(w, r, Page())
}

// ServeAsset answers GET /console/{file}: the page's script and style sheet.
func ServeAsset(w http.ResponseWriter, r *http.Request) {
	name := chi.URLParam(r, "file")
	a, ok := Lookup(name)
	if !ok || name == "index.html" {
		rest.Error(w, http.StatusNotFound, fmt.Sprintf("no such file of the console: %s", rest.Clip(name)))
		return
	}
	serveAsset(w, r, a)
}

// serveAsset answers with an embedded file. Browsers revalidate it on every load (the ETag makes
// that a 304), so a new binary's page is never mixed with an old script.
func serveAsset(w http.ResponseWriter, r *http.Request, a Asset) {
	h := w.Header()
	h.Set("Content-Type", a.ContentType)
	h.Set("Content-Security-Policy", consoleCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", a.ETag)
	http.ServeContent(w, r, a.Name, time.Time{}, bytes.NewReader(a.Body))
}
