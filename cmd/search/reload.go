package main

import (
	"context"
	"log/slog"

	"flightalliance/internal/hangup"
	"flightalliance/search"
)

// reloadTrustOnHangup reads the trust file again on every SIGHUP until ctx ends, and puts it in
// force at once: that is how an alliance's token is changed while the server runs (its new
// token added on a second line, the old one removed once its machines use the new one). A file
// that cannot be read or is malformed changes nothing: the trust in force stays, and the log says
// why (naming file:line, never a token). A server without --trust has nothing to read again.
func reloadTrustOnHangup(ctx context.Context, file string, trust *search.Trust, log *slog.Logger) {
	hangup.Do(ctx, func() {
		if trust == nil {
			log.Warn("SIGHUP: this server has no --trust file to read again; registrations stay open")
			return
		}
		read, err := search.LoadTrust(file)
		if err != nil {
			log.Error("SIGHUP: the trust file was not read again; the one in force stays", "file", file, "err", err)
			return
		}
		trust.Replace(read)
		log.Info("SIGHUP: trust file read again and in force", "file", file, "tokens", read.Tokens())
	})
}
