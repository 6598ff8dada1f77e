package soap

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestTokenRequired: with a token, the service answers only calls that carry it; the others get
// a Client fault saying what is wrong — never the data — and the operation does not run.
func TestTokenRequired(t *testing.T) {
	s := startServer(t, serverOps{token: "s3cret-token"})
	req := RelevantBySrcRequest{Src: "TLV", Date: "2026-12-01"}
	for name, tc := range map[string]struct{ token, want string }{
		"no token":      {"", "missing Authorization"},
		"wrong token":   {"s3cret-tokem", "wrong token"},
		"longer token":  {"s3cret-token-and-more", "wrong token"},
		"another token": {"x", "wrong token"},
	} {
		c := NewIntraClient(s.URL+IntraClusterServicePath, ClientOptions{Timeout: 5 * time.Second, Token: tc.token})
		resp, err := c.RelevantBySrc(context.Background(), req)
		var f *Fault
		if !errors.As(err, &f) || f.Code != CodeClient || !strings.Contains(f.String, tc.want) || resp != nil {
			t.Errorf("%s: %+v, %v; want a Client fault containing %q", name, resp, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%s: the fault reveals the token: %v", name, f)
		}
	}
	if n := s.count(OpRelevantBySrc); n != 0 {
		t.Fatalf("the operation ran %d times for refused calls", n)
	}
	c := NewIntraClient(s.URL+IntraClusterServicePath, ClientOptions{Timeout: 5 * time.Second, Token: "s3cret-token"})
	if _, err := c.RelevantBySrc(context.Background(), req); err != nil {
		t.Fatalf("with the token: %v", err)
	}
	// The WSDL is behind the token too; the SellerService is not.
	resp, err := http.Get(s.URL + IntraClusterServicePath + "?wsdl")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("WSDL without the token: %s %q", resp.Status, resp.Header.Get("WWW-Authenticate"))
	}
	if _, err := s.seller().GetTrips(context.Background(), GetTripsRequest{Src: "TLV", Dst: "JFK", Date: "2026-12-01"}); err != nil {
		t.Errorf("SellerService without a token: %v", err)
	}
}

// TestEveryAcceptedTokenIsRequiredOfNoneElse: while an alliance changes its token, a service that
// accepts its new and old tokens answers calls carrying either, and refuses every other token as
// it refused them before.
func TestEveryAcceptedTokenIsRequiredOfNoneElse(t *testing.T) {
	s := startServer(t, serverOps{token: "new-token", accepted: []string{"old-token"}})
	req := RelevantBySrcRequest{Src: "TLV", Date: "2026-12-01"}
	for token, want := range map[string]string{
		"new-token": "", "old-token": "",
		"": "missing Authorization", "new-tokenold-token": "wrong token", "old-tokem": "wrong token", "new": "wrong token",
	} {
		c := NewIntraClient(s.URL+IntraClusterServicePath, ClientOptions{Timeout: 5 * time.Second, Token: token})
		_, err := c.RelevantBySrc(context.Background(), req)
		var f *Fault
		switch {
		case want == "" && err != nil:
			t.Errorf("token %q: %v, want an answer", token, err)
		case want != "" && (!errors.As(err, &f) || f.Code != CodeClient || !strings.Contains(f.String, want)):
			t.Errorf("token %q: %v, want a Client fault containing %q", token, err, want)
		}
	}
	if n := s.count(OpRelevantBySrc); n != 2 {
		t.Errorf("the operation ran %d times, want 2 (the two accepted tokens)", n)
	}
}

// TestTokensChangeWhileServing: Tokens.Set changes at once what a running service accepts and
// what a client (its connections kept) sends — the steps of an alliance changing its token.
func TestTokensChangeWhileServing(t *testing.T) {
	serverTokens, clientTokens := NewTokens("old"), NewTokens("old")
	s := startServer(t, serverOps{tokens: serverTokens})
	c := NewIntraClient(s.URL+IntraClusterServicePath, ClientOptions{Timeout: 5 * time.Second, Tokens: clientTokens})
	req := RelevantBySrcRequest{Src: "TLV", Date: "2026-12-01"}
	for _, step := range []struct {
		what           string
		server, client []string // Set's arguments; nil: unchanged
		answered       bool
	}{
		{"both on the old token", nil, nil, true},
		{"the service accepts the new one too", []string{"new", "old"}, nil, true},
		{"the client sends the new one", nil, []string{"new", "old"}, true},
		{"the service accepts the new one alone", []string{"new"}, nil, true},
		{"a client still sending the old one", nil, []string{"old"}, false},
	} {
		if step.server != nil {
			serverTokens.Set(step.server[0], step.server[1:]...)
		}
		if step.client != nil {
			clientTokens.Set(step.client[0], step.client[1:]...)
		}
		_, err := c.RelevantBySrc(context.Background(), req)
		var f *Fault
		switch {
		case step.answered && err != nil:
			t.Errorf("%s: %v, want an answer", step.what, err)
		case !step.answered && (!errors.As(err, &f) || !strings.Contains(f.String, "wrong token")):
			t.Errorf("%s: %v, want a Client fault (wrong token)", step.what, err)
		}
	}
}

// TestAnEmptyTokenIsNeverAccepted: "Bearer " with nothing after it is refused, even by a set of
// tokens given an empty one by mistake.
func TestAnEmptyTokenIsNeverAccepted(t *testing.T) {
	tokens := NewTokens("s3cret", "")
	for _, header := range []string{"Bearer ", "Bearer   ", "bearer \t"} {
		if f := tokens.check(header); f == nil || !strings.Contains(f.String, "the token is empty") {
			t.Errorf("%q: %v, want a fault saying the token is empty", header, f)
		}
	}
	if f := tokens.check("Bearer s3cret"); f != nil {
		t.Errorf("the token sent is refused: %v", f)
	}
}
