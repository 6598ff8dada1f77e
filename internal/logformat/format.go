// Package logformat makes a server's whole log one stream in one format — text (slog's
// key=value lines, the default) or JSON (one object a line) — so that one collector can parse
// all of it: the server's own slog records, and etcd's zap logs (the embedded member's and its
// clients') through a zapcore.Core that hands every entry to the same slog.Handler (Zap).
//
// It only shapes log records: it opens no file and starts nothing. TakeOver, for a server's
// main alone, also routes the process-wide loggers (the log package, gRPC's) to the stream.
package logformat

import (
	"fmt"
	"io"
	"log/slog"
)

// Format is how log records are written.
type Format string

const (
	Text Format = "text" // slog's TextHandler: key=value
	JSON Format = "json" // slog's JSONHandler: one JSON object a line
)

// Parse reads a --log-format value.
func Parse(s string) (Format, error) {
	switch f := Format(s); f {
	case Text, JSON:
		return f, nil
	}
	return "", fmt.Errorf("%q, want json or text", s)
}

// New is a logger writing records at level or above to w in format f.
func New(w io.Writer, f Format, level slog.Leveler) *slog.Logger {
	opts := &slog.HandlerOptions{Level: level}
	if f == JSON {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
