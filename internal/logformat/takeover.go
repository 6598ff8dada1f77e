package logformat

import (
	"log/slog"

	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zapgrpc"
	"google.golang.org/grpc/grpclog"
)

// TakeOver routes the process-wide loggers to l, so that nothing else writes to the stream in
// another format: slog's default and the log package's (net/http's server errors, TLS handshake
// failures among them) become l's records at info, and gRPC's own log (etcd's transport) l's
// records at error, as gRPC logs by default. Only a server's main calls it, once, before
// anything logs: gRPC's logger must be set before gRPC is used.
func TakeOver(l *slog.Logger) {
	slog.SetDefault(l)
	grpclog.SetLoggerV2(zapgrpc.NewLogger(Zap(l.With("component", "grpc").Handler(), zapcore.ErrorLevel)))
}
