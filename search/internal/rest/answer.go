package rest

import (
	"encoding/json"
	"net/http"
	"strconv"
)

// ErrorBody is the JSON body of every 4xx/5xx answer.
type ErrorBody struct {
	Error string `json:"error"`
}

// JSON answers status with v as JSON, not to be cached.
func JSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil { // only our own types are written: this is a programming error
		http.Error(w, `{"error":"cannot encode answer"}`, http.StatusInternalServerError)
		return
	}
	b = append(b, '\n')
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	// The length lets a client read a refusal to the end while the server still drains its body.
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b)
}

// Error answers status with an ErrorBody saying msg.
func Error(w http.ResponseWriter, status int, msg string) {
	JSON(w, status, ErrorBody{Error: msg})
}

// Clip keeps echoed input short, so an error message cannot be used to reflect a huge value.
func Clip(s string) string {
	const n = 40
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
