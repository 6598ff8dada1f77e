package logformat

import (
	"context"
	"log/slog"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// Zap is a zap logger whose entries at min or above become records of h — give h the attributes
// every entry should carry (logger.With("component", "etcd").Handler()) — so that etcd's logs
// take the server's format, stream and level. go.uber.org/zap/exp/zapslog goes the other way (a
// slog.Handler over a zap core), hence this bridge.
func Zap(h slog.Handler, min zapcore.LevelEnabler) *zap.Logger {
	return zap.New(NewCore(h, min), zap.AddCaller())
}

// NewCore is a zapcore.Core that writes every entry at min or above (and that h is enabled for)
// as a record of h: the entry's level, time and message, then "logger" (a named logger's name),
// "caller", the fields in their order, and "stack" when the entry has one.
func NewCore(h slog.Handler, min zapcore.LevelEnabler) zapcore.Core {
	return &slogCore{handler: h, min: min}
}

type slogCore struct {
	handler slog.Handler // with the fields of With already added
	min     zapcore.LevelEnabler
}

func (c *slogCore) Enabled(l zapcore.Level) bool {
	return c.min.Enabled(l) && c.handler.Enabled(context.Background(), slogLevel(l))
}

func (c *slogCore) With(fields []zapcore.Field) zapcore.Core {
	return &slogCore{handler: c.handler.WithAttrs(attrs(fields)), min: c.min}
}

func (c *slogCore) Check(e zapcore.Entry, ce *zapcore.CheckedEntry) *zapcore.CheckedEntry {
	if c.Enabled(e.Level) {
		return ce.AddCore(e, c)
	}
	return ce
}

func (c *slogCore) Write(e zapcore.Entry, fields []zapcore.Field) error {
	at := e.Time
	if at.IsZero() {
		at = time.Now()
	}
	r := slog.NewRecord(at, slogLevel(e.Level), e.Message, 0)
	if e.LoggerName != "" {
		r.AddAttrs(slog.String("logger", e.LoggerName))
	}
	if e.Caller.Defined {
		r.AddAttrs(slog.String("caller", e.Caller.TrimmedPath()))
	}
	r.AddAttrs(attrs(fields)...)
	if e.Stack != "" {
		r.AddAttrs(slog.String("stack", e.Stack))
	}
	return c.handler.Handle(context.Background(), r)
}

func (c *slogCore) Sync() error { return nil }

// slogLevel maps zap's levels on slog's; DPanic, Panic and Fatal are errors (zap itself panics
// or exits after writing them).
func slogLevel(l zapcore.Level) slog.Level {
	switch {
	case l <= zapcore.DebugLevel:
		return slog.LevelDebug
	case l == zapcore.InfoLevel:
		return slog.LevelInfo
	case l == zapcore.WarnLevel:
		return slog.LevelWarn
	}
	return slog.LevelError
}

// attrs are zap fields as slog attributes, in their order: each field is encoded by zap itself
// (errors as their message, durations, times, objects and arrays as maps and slices).
func attrs(fields []zapcore.Field) []slog.Attr {
	out := make([]slog.Attr, 0, len(fields))
	for _, f := range fields {
		if f.Type == zapcore.NamespaceType {
			continue // slog has groups, but a namespace holds the fields after it: kept flat
		}
		enc := zapcore.NewMapObjectEncoder()
		f.AddTo(enc)
		for _, key := range fieldKeys(f, enc) {
			out = append(out, slog.Any(key, enc.Fields[key]))
		}
	}
	return out
}

// fieldKeys are the keys one field wrote: its own, and for an error its "<key>Verbose" too
// when zap added one. A skipped field writes none.
func fieldKeys(f zapcore.Field, enc *zapcore.MapObjectEncoder) []string {
	var keys []string
	for _, k := range []string{f.Key, f.Key + "Verbose"} {
		if _, ok := enc.Fields[k]; ok {
			keys = append(keys, k)
		}
	}
	return keys
}
