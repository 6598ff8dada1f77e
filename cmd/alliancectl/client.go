package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// maxBody bounds every answer alliancectl reads.
const maxBody = 64 << 20

// answer is the part of a search answer (docs/api.md, "Search") alliancectl reads.
type answer struct {
	Trips     []json.RawMessage `json:"trips"`
	Complete  bool              `json:"complete"`
	Alliances []struct {
		Name           string   `json:"name"`
		Complete       bool     `json:"complete"`
		MissingSellers []string `json:"missing_sellers"`
		Error          string   `json:"error"`
	} `json:"alliances"`
}

// searchURL is the REST URL of q on the search server at base.
func searchURL(base string, q Query) string {
	v := url.Values{"src": {q.Src}, "dst": {q.Dst}, "date": {q.Date}}
	return strings.TrimRight(base, "/") + "/Services/FlightsSearch/flight?" + v.Encode()
}

// search runs q on the search server at base.
func search(ctx context.Context, c *http.Client, base string, q Query) (answer, error) {
	var a answer
	err := getJSON(ctx, c, searchURL(base, q), &a)
	return a, err
}

// readyFor says why a an answer is not yet what `up` waits for: complete, from every one of
// the alliances, with at least one trip.
func (a answer) readyFor(alliances []string) error {
	got := map[string]bool{}
	for _, st := range a.Alliances {
		if !st.Complete {
			return fmt.Errorf("alliance %s incomplete (missing %v) %s", st.Name, st.MissingSellers, st.Error)
		}
		got[st.Name] = true
	}
	for _, n := range alliances {
		if !got[n] {
			return fmt.Errorf("alliance %s has not registered with the search server yet", n)
		}
	}
	switch {
	case !a.Complete:
		return fmt.Errorf("answer not complete")
	case len(a.Trips) == 0:
		return fmt.Errorf("no trips yet")
	}
	return nil
}

// getJSON GETs url and decodes a 200 answer into out.
func getJSON(ctx context.Context, c *http.Client, url string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return fmt.Errorf("GET %s: %w", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s: %s", url, resp.Status, strings.TrimSpace(string(body)))
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("GET %s: %w", url, err)
	}
	return nil
}

// newHTTPClient is a client whose every request has a deadline.
func newHTTPClient(timeout time.Duration) *http.Client {
	return &http.Client{Timeout: timeout}
}
