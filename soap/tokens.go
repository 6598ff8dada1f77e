package soap

import "sync/atomic"

// Tokens are an alliance's bearer tokens as a machine holds them: the one it sends with its
// calls, and every one its IntraClusterService accepts — the one it sends and, while the alliance
// changes its token, the other. Set changes them while the machine runs (the airline server
// reads its token file again on SIGHUP): calls and checks that start after use the new ones.
type Tokens struct{ cur atomic.Pointer[tokenSet] }

type tokenSet struct {
	send   string
	header string // "Bearer " + send, made once rather than on every call
	accept *bearer
}

// NewTokens holds send, the token sent and accepted, and alsoAccepted, accepted too.
func NewTokens(send string, alsoAccepted ...string) *Tokens {
	t := &Tokens{}
	t.Set(send, alsoAccepted...)
	return t
}

// Set replaces the tokens held.
func (t *Tokens) Set(send string, alsoAccepted ...string) {
	t.cur.Store(&tokenSet{send: send, header: "Bearer " + send, accept: newBearer(append([]string{send}, alsoAccepted...)...)})
}

// Send is the token a call carries.
func (t *Tokens) Send() string { return t.cur.Load().send }

// Authorization is the Authorization header a call carries: "Bearer " and Send.
func (t *Tokens) Authorization() string { return t.cur.Load().header }

// check is the bearer check of an Authorization header against the tokens accepted now.
func (t *Tokens) check(header string) *Fault { return t.cur.Load().accept.check(header) }
