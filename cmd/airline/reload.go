package main

import (
	"context"
	"log/slog"

	"flightalliance/alliance"
	"flightalliance/internal/hangup"
	"flightalliance/internal/pki"
)

// readTokensOnHangup reads the token file again on every SIGHUP until ctx ends and puts it in
// force at once (alliance.Machine.SetTokens): the first line is the token the machine sends from
// then on, and every line a token its IntraClusterService accepts — how an alliance changes its
// token without restarting a machine (README: "Changing an alliance's token"). A file that cannot
// be read, or that pki.ReadTokens refuses (no token, a line with white space inside, a token
// twice), changes nothing: the tokens in force stay, and the log says why (never a
// token). A machine started without --token-file has nothing to read again.
func readTokensOnHangup(ctx context.Context, file string, m *alliance.Machine, log *slog.Logger) {
	hangup.Do(ctx, func() {
		if file == "" {
			log.Warn("SIGHUP: this machine has no --token-file to read again; its alliance stays open")
			return
		}
		tokens, err := pki.ReadTokens(file)
		if err == nil {
			err = m.SetTokens(tokens[0], tokens[1:]...)
		}
		if err != nil {
			log.Error("SIGHUP: the token file was not read again; the tokens in force stay", "file", file, "err", err)
			return
		}
		log.Info("SIGHUP: token file read again and in force: the first line's token is sent, every line's accepted",
			"file", file, "tokens", len(tokens))
	})
}
