package soap

import (
	"crypto/sha256"
	"crypto/subtle"
	"strings"
)

// bearer checks an Authorization header against the tokens accepted in constant time: all are
// hashed first, and each is compared, so neither a token's content nor its length shows in the
// time a check takes. More than one token is accepted while an alliance changes its token.
type bearer struct{ sums [][32]byte }

func newBearer(tokens ...string) *bearer {
	b := &bearer{}
	for _, t := range tokens {
		if t == "" {
			continue // an empty token is no token: "Bearer " alone is never accepted
		}
		b.sums = append(b.sums, sha256.Sum256([]byte(t)))
	}
	return b
}

// check returns nil for "Bearer <a token accepted>", and a fault that reveals nothing of the
// tokens otherwise.
func (b *bearer) check(header string) *Fault {
	scheme, token, ok := strings.Cut(header, " ")
	if header == "" {
		return ClientFault("missing Authorization: this service needs the alliance's token (Authorization: Bearer <token>)")
	}
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ClientFault("Authorization: want Bearer <token>")
	}
	token = strings.TrimSpace(token)
	if token == "" {
		return ClientFault("Authorization: want Bearer <token>, the token is empty")
	}
	sum := sha256.Sum256([]byte(token))
	match := 0
	for _, want := range b.sums {
		match |= subtle.ConstantTimeCompare(sum[:], want[:])
	}
	if match != 1 {
		return ClientFault("Authorization: wrong token for this alliance")
	}
	return nil
}
