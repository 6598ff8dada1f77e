package gather

import (
	"cmp"
	"slices"
)

// fewestCalls arranges each key's candidates so that the machines asked first are as few as it
// can find. A search asks every seller's first candidate at once, one call per machine for all
// the sellers it is asked about (hedge.Gather), and a call costs both ends a request, an answer,
// their encodings and a wake-up: with five machines of one seller and two copies of each, asking
// each seller's primary makes three calls where two machines hold all three sellers.
//
// The first alike[k] candidates of key k hold its current version (the same data): one of them
// is put first. Which ones are asked is a greedy set cover: a key goes to a machine already asked
// when one of its alike is, else the machine holding the most keys still to place is asked (ties
// to the machine some key lists earliest — the view's order, a primary before its backups — then
// by a hash of spread and the machine's name: searches of different queries, spread, go to
// different machines of those that could answer them as cheaply, rather than all to the first by
// name); then a machine the later picks made needless is dropped. Each key is then placed with
// the earliest of its alike that is asked, so the view's order stands wherever it costs no call.
//
// The machine put first leaves the others in the view's order, except that the rest of the
// alike follow it spread by zone (SpreadZones, zoneOf): a failure or a hedge goes to another zone
// first, as in the view's order. A key with alike ≤ 1 keeps its list (its first is this machine's
// own copy, or the one holder of its current version), and its first machine counts as asked.
// When all this asks more machines than the view's order does (greedy is not always best), the
// view's order is kept. Pure: candidates is not changed, and the keys' order does not matter.
func fewestCalls(keys []string, candidates map[string][]string, alike map[string]int, zoneOf func(string) string, spread string) map[string][]string {
	c := cover{candidates: candidates, alike: alike, spread: spread, asked: map[string]bool{}}
	var open []string // the keys with a choice
	for _, k := range keys {
		switch {
		case len(c.choices(k)) > 1:
			open = append(open, k)
		case len(candidates[k]) > 0:
			c.asked[candidates[k][0]] = true
		}
	}
	var picked []string
	for left := open; ; {
		left = slices.DeleteFunc(slices.Clone(left), c.hasAsked)
		if len(left) == 0 {
			break
		}
		best := c.mostHeld(left)
		c.asked[best] = true
		picked = append(picked, best)
	}
	for _, m := range slices.Backward(picked) {
		c.drop(m, open)
	}
	out := make(map[string][]string, len(keys))
	viewOrder := make(map[string][]string, len(keys))
	for _, k := range keys {
		out[k], viewOrder[k] = candidates[k], candidates[k]
	}
	for _, k := range open {
		if i := c.earliestAsked(k); i >= 0 { // always: every key keeps an asked machine
			out[k] = c.reorder(k, i, zoneOf)
		}
	}
	if firstsAsked(out) > firstsAsked(viewOrder) {
		return viewOrder
	}
	return out
}

// cover is fewestCalls at work.
type cover struct {
	candidates map[string][]string
	alike      map[string]int
	spread     string          // what ties are broken by (tieRank)
	asked      map[string]bool // the machines asked first
}

// choices is the candidates of k that may be asked first.
func (c *cover) choices(k string) []string {
	return c.candidates[k][:max(0, min(c.alike[k], len(c.candidates[k])))]
}

// hasAsked reports whether a machine among the choices of k is asked.
func (c *cover) hasAsked(k string) bool { return c.earliestAsked(k) >= 0 }

// earliestAsked is the position of the first of k's choices that is asked; −1 when none is.
func (c *cover) earliestAsked(k string) int {
	return slices.IndexFunc(c.choices(k), func(m string) bool { return c.asked[m] })
}

// mostHeld is the machine among the choices of keys that the most of them have, ties going to
// the one listed earliest by some key, then to the least tieRank, then by name.
func (c *cover) mostHeld(keys []string) string {
	type score struct {
		keys, earliest int
		rank           uint64
	}
	scores := map[string]score{}
	for _, k := range keys {
		for i, m := range c.choices(k) {
			s, seen := scores[m]
			if !seen {
				s.rank = tieRank(c.spread, m)
			}
			if !seen || i < s.earliest {
				s.earliest = i
			}
			s.keys++
			scores[m] = s
		}
	}
	best, top := "", score{}
	for m, s := range scores {
		better := cmp.Or(cmp.Compare(top.keys, s.keys), cmp.Compare(s.earliest, top.earliest), cmp.Compare(s.rank, top.rank), cmp.Compare(m, best)) < 0
		if best == "" || better {
			best, top = m, s
		}
	}
	return best
}

// drop un-asks the picked machine m when every key of keys that has m among its choices has
// another machine asked there too.
func (c *cover) drop(m string, keys []string) {
	for _, k := range keys {
		if slices.Contains(c.choices(k), m) && !slices.ContainsFunc(c.choices(k), func(o string) bool { return o != m && c.asked[o] }) {
			return
		}
	}
	delete(c.asked, m)
}

// reorder is k's candidates with its i-th first, the rest of its choices after it spread by
// zone, then the others in their order — in a new slice.
func (c *cover) reorder(k string, i int, zoneOf func(string) string) []string {
	list, n := c.candidates[k], len(c.choices(k))
	first := list[i]
	rest := slices.Delete(slices.Clone(list[:n]), i, i+1)
	out := make([]string, 0, len(list))
	out = append(out, first)
	out = append(out, SpreadZones([]string{first}, rest, zoneOf)...)
	return append(out, list[n:]...)
}

// firstsAsked is how many machines are asked first in order.
func firstsAsked(order map[string][]string) int {
	seen := map[string]bool{}
	for _, list := range order {
		if len(list) > 0 {
			seen[list[0]] = true
		}
	}
	return len(seen)
}

// tieRank is FNV-1a of spread, a zero byte and machine, mixed (murmur3's fmix64): an order of the
// machines that differs from one spread to another and is the same everywhere for one. Without
// the mix, two names that differ in their last byte would compare by the parity of spread's bytes
// alone (FNV-1a's last step moves such hashes apart by its prime).
func tieRank(spread, machine string) uint64 {
	h := uint64(14695981039346656037)
	for _, b := range []byte(spread + "\x00" + machine) {
		h = (h ^ uint64(b)) * 1099511628211
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	return h ^ h>>33
}
