package main

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"flightalliance/search"
)

// reloadTrustOnHangup reads the trust file again on every SIGHUP until ctx ends, and puts it in
// force at once: that is how an alliance's token is changed while the server runs (its new
// token added on a second line, the old one removed once its machines use the new one). A file
// that cannot be read or is malformed changes nothing: the trust in force stays, and the log says
// why (naming file:line, never a token). A server without --trust has nothing to read again.
func reloadTrustOnHangup(ctx context.Context, file string, trust *search.Trust, log *slog.Logger) {
	hangups := make(chan os.Signal, 1)
	signal.Notify(hangups, syscall.SIGHUP)
	go func() {
		defer signal.Stop(hangups)
		for {
			select {
			case <-ctx.Done():
				return
			case <-hangups:
			}
			if trust == nil {
				log.Warn("SIGHUP: this server has no --trust file to read again; registrations stay open")
				continue
			}
			read, err := search.LoadTrust(file)
			if err != nil {
				log.Error("SIGHUP: the trust file was not read again; the one in force stays", "file", file, "err", err)
				continue
			}
			trust.Replace(read)
			log.Info("SIGHUP: trust file read again and in force", "file", file, "tokens", read.Tokens())
		}
	}()
}
