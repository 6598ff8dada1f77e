package soap

import (
	"crypto/sha256"
	"crypto/subtle"
	"strings"
)

// bearer checks an Authorization header against a token in constant time: both are hashed
// first, so neither the token's content nor its length shows in the time a check takes.
type bearer struct{ sum [32]byte }

func newBearer(token string) *bearer { return &bearer{sum: sha256.Sum256([]byte(token))} }

// check returns nil for "Bearer <the token>", and a fault that reveals nothing of the token
// otherwise.
func (b *bearer) check(header string) *Fault {
	scheme, token, ok := strings.Cut(header, " ")
	if header == "" {
		return ClientFault("missing Authorization: this service needs the alliance's token (Authorization: Bearer <token>)")
	}
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ClientFault("Authorization: want Bearer <token>")
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(token)))
	if subtle.ConstantTimeCompare(sum[:], b.sum[:]) != 1 {
		return ClientFault("Authorization: wrong token for this alliance")
	}
	return nil
}
