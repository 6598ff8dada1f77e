package alliance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// delegateLoop registers this machine with every search server while it is the delegate (the
// live machine with the smallest name): at once when it becomes delegate, then every
// RegisterEvery, so that a restarted search server gets the alliance back within seconds.
func (m *Machine) delegateLoop(ctx context.Context) {
	client := &http.Client{Timeout: m.cfg.CallTimeout}
	was := ""
	tick := time.NewTicker(m.cfg.RegisterEvery)
	defer tick.Stop()
	for {
		changed := m.view.wait()
		now := m.view.delegate()
		if now != was {
			m.log.Info("delegate changed", "delegate", now, "previous", was, "self", now == m.cfg.Name)
			was = now
			m.metrics.delegate.Set(boolGauge(now == m.cfg.Name))
			if now == m.cfg.Name {
				m.registerEverywhere(ctx, client)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-changed:
		case <-tick.C:
			if m.view.delegate() == m.cfg.Name && !m.leaving.Load() {
				m.registerEverywhere(ctx, client)
			}
		}
	}
}

func (m *Machine) registerEverywhere(ctx context.Context, client *http.Client) {
	uri := m.cfg.AdvertiseURL + sellerPath
	for _, search := range m.cfg.SearchURLs {
		if err := registerWith(ctx, client, search, m.cfg.Alliance, uri); err != nil {
			m.log.Warn("registering with the search server failed", "search", search, "err", err)
			continue
		}
		m.metrics.registrations.Inc()
	}
}

// registerWith calls PUT /Services/FlightsSearchReg/Register/{alliance} on one search server.
func registerWith(ctx context.Context, client *http.Client, search, alliance, uri string) error {
	body, _ := json.Marshal(map[string]string{"uri": uri})
	target := strings.TrimRight(search, "/") + "/Services/FlightsSearchReg/Register/" + url.PathEscape(alliance)
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, target, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("%s: %s: %s", target, resp.Status, bytes.TrimSpace(msg))
	}
	return nil
}

// unregisterEverywhere removes this alliance from the search servers (the last machine leaving).
func (m *Machine) unregisterEverywhere(ctx context.Context) {
	client := &http.Client{Timeout: m.cfg.CallTimeout}
	for _, search := range m.cfg.SearchURLs {
		target := strings.TrimRight(search, "/") + "/Services/FlightsSearchReg/Unregister?cluster=" + url.QueryEscape(m.cfg.Alliance)
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, target, nil)
		if err != nil {
			continue
		}
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
		}
	}
}

func boolGauge(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
