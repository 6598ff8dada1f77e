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
)

// The delegate's registration with the search servers: what the delegate loop does when
// delegateRole.step says to register, and what the last machine leaving does.

// registerEverywhere registers this machine as the alliance's delegate, with alternates, on
// every search server; a failure is logged and tried again at the registrar's next turn.
func (m *Machine) registerEverywhere(ctx context.Context, client *http.Client, alternates []string) {
	uri := m.cfg.AdvertiseURL + sellerPath
	for _, search := range m.cfg.SearchURLs {
		if err := registerWith(ctx, client, m.sec, search, m.cfg.Alliance, uri, alternates); err != nil {
			m.log.Warn("registering with the search server failed", "search", search, "err", err)
			continue
		}
		m.metrics.registrations.Inc()
	}
}

// registerWith calls PUT /Services/FlightsSearchReg/Register/{alliance} on one search server.
func registerWith(ctx context.Context, client *http.Client, sec security, search, alliance, uri string, alternates []string) error {
	body, _ := json.Marshal(map[string]any{"uri": uri, "alternates": alternates})
	target := strings.TrimRight(search, "/") + "/Services/FlightsSearchReg/Register/" + url.PathEscape(alliance)
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, target, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	sec.authorize(req)
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
	client := m.sec.client(m.cfg.CallTimeout)
	for _, search := range m.cfg.SearchURLs {
		target := strings.TrimRight(search, "/") + "/Services/FlightsSearchReg/Unregister?cluster=" + url.QueryEscape(m.cfg.Alliance)
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, target, nil)
		if err != nil {
			continue
		}
		m.sec.authorize(req)
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
		}
	}
}
