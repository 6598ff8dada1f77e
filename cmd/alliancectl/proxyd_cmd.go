package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"
)

// cmdProxyd is the hidden `proxyd` command that `up --proxies` starts: it runs the proxies of
// every machine recorded in state.json and serves the control API on the address recorded for
// it, until SIGTERM.
func cmdProxyd(ctx context.Context, args []string, out io.Writer) error {
	fs, dir := newFlags("proxyd", "proxyd --dir DIR   (started by up --proxies; not for direct use)", out)
	if _, err := parse(fs, args, 0, ""); err != nil {
		return err
	}
	s, abs, err := openState(*dir)
	if err != nil {
		return err
	}
	me := s.proxyd()
	if me == nil {
		return fmt.Errorf("%s records no proxy daemon (up --proxies starts one)", abs)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: logLevel(s.LogLevel)}))
	d := newProxyDaemon(abs, log)
	defer d.close()
	for _, p := range s.Procs {
		if p.Advertise == nil {
			continue
		}
		if err := d.add(p.Name, proxySpec{Advertise: *p.Advertise, Upstream: p.Ports}); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", me.Ports.Listen)
	if err != nil {
		return fmt.Errorf("control API: %w", err)
	}
	srv := &http.Server{Handler: d.routes(), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	log.Info("proxy daemon ready", "api", "http://"+me.Ports.Listen, "machines", len(d.machines))
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	_ = srv.Shutdown(sctx)
	log.Info("proxy daemon stopped")
	return nil
}

func logLevel(s string) slog.Level {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return slog.LevelInfo
	}
	return l
}
