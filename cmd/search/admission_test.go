package main

import (
	"bytes"
	"testing"
	"time"
)

// TestAdmissionDefaultsAreTheServers: the admission flags' defaults are the search server's own,
// and the order gate's longest wait, no flag, is left to the server's default (100ms).
func TestAdmissionDefaultsAreTheServers(t *testing.T) {
	c, err := parseConfig(nil, nil, new(bytes.Buffer))
	if err != nil {
		t.Fatal(err)
	}
	s := c.server
	if s.MaxSearches != 256 || s.QueueTimeout != time.Second || s.OrderedSearches != 4 || s.OrderWait != 0 {
		t.Errorf("max searches %d, queue timeout %s, ordered searches %d, order wait %s; want 256, 1s, 4, 0 (the server's 100ms)",
			s.MaxSearches, s.QueueTimeout, s.OrderedSearches, s.OrderWait)
	}
	c, err = parseConfig([]string{"--ordered-searches", "0"}, nil, new(bytes.Buffer))
	if err != nil || c.server.OrderedSearches != -1 {
		t.Errorf("--ordered-searches 0: ordered searches %d (%v), want -1 (none)", c.server.OrderedSearches, err)
	}
}
