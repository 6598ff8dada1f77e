package search

import (
	_ "embed"
	"net/http"
)

// openAPIDoc is the OpenAPI 3 description of the REST API, served at /openapi.json.
//
//go:embed openapi.json
var openAPIDoc []byte

func handleOpenAPI(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(openAPIDoc)
}
