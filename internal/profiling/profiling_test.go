package profiling

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
)

func TestServesTheProfilesUntilStopped(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	stop, err := Start(addr, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + addr + "/debug/pprof/goroutine?debug=1")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "goroutine profile") {
		t.Errorf("goroutine profile: %d %.100s", resp.StatusCode, body)
	}
	stop()
	if _, err := http.Get("http://" + addr + "/debug/pprof/"); err == nil {
		t.Errorf("the profiles are still served after stop")
	}
	if _, err := Start("127.0.0.1:bad", slog.New(slog.DiscardHandler)); err == nil {
		t.Errorf("a bad address was accepted")
	}
}
