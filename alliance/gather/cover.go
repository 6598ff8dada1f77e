package gather

import "slices"

// fewestCalls arranges each key's candidates so that the machines asked first are as few as it
// can find. A search asks every seller's first candidate at once, one call per machine for all
// the sellers it is asked about (hedge.Gather), and a call costs both ends a request, an answer,
// their encodings and a wake-up: with five machines of one seller and two copies of each, asking
// each seller's primary makes three calls where two machines hold all three sellers.
//
// Among the first alike[k] candidates of key k (the holders of its current version: the same
// data), the machine put first is one already asked for another key when there is one, else the
// one holding the most keys still to place — a greedy set cover — ties going to the machine some
// key lists earliest (the view's order: a primary before its backups), then by name; a machine it
// picked whose keys the later picks all hold too is then dropped. The machine is moved to the
// front of the key's list and the others keep their order, so that a failure or a hedge still
// goes to the next in the view's order. A key with alike ≤ 1 keeps its list (its first is this
// machine's own copy, or the one holder of its current version), and its first machine counts as
// asked. When all this asks more machines than the view's order would (greedy is not always
// best), the view's order is kept. Pure: candidates is not changed, and the keys' order does not
// matter.
func fewestCalls(keys []string, candidates map[string][]string, alike map[string]int) map[string][]string {
	c := cover{candidates: candidates, alike: alike, first: make(map[string]string, len(keys)), asked: map[string]bool{}}
	var open []string // the keys with a choice, not yet placed
	for _, k := range keys {
		switch {
		case len(c.choices(k)) > 1:
			open = append(open, k)
		case len(candidates[k]) > 0:
			c.asked[candidates[k][0]] = true
		}
	}
	var picked []string
	for {
		open = slices.DeleteFunc(open, c.join)
		if len(open) == 0 {
			break
		}
		best := c.mostHeld(open)
		c.asked[best] = true
		picked = append(picked, best)
	}
	for _, m := range slices.Backward(picked) {
		c.drop(m)
	}
	out := make(map[string][]string, len(keys))
	viewOrder := make(map[string][]string, len(keys))
	for _, k := range keys {
		out[k], viewOrder[k] = candidates[k], candidates[k]
		if m, placed := c.first[k]; placed {
			out[k] = toFront(candidates[k], slices.Index(candidates[k], m))
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
	first      map[string]string // key → the machine it is placed with (keys with a choice)
	asked      map[string]bool   // the machines asked first
}

// choices is the candidates of k that may be asked first.
func (c *cover) choices(k string) []string {
	return c.candidates[k][:min(c.alike[k], len(c.candidates[k]))]
}

// join places k with the first of its choices already asked, if any.
func (c *cover) join(k string) bool {
	i := slices.IndexFunc(c.choices(k), func(m string) bool { return c.asked[m] })
	if i >= 0 {
		c.first[k] = c.choices(k)[i]
	}
	return i >= 0
}

// mostHeld is the machine among the choices of keys that the most of them have, ties going to
// the one listed earliest by some key, then by name.
func (c *cover) mostHeld(keys []string) string {
	type score struct{ keys, earliest int }
	scores := map[string]score{}
	for _, k := range keys {
		for i, m := range c.choices(k) {
			s, seen := scores[m]
			if !seen || i < s.earliest {
				s.earliest = i
			}
			s.keys++
			scores[m] = s
		}
	}
	best, top := "", score{}
	for m, s := range scores {
		if best == "" || s.keys > top.keys || s.keys == top.keys && (s.earliest < top.earliest || s.earliest == top.earliest && m < best) {
			best, top = m, s
		}
	}
	return best
}

// drop un-asks m when every key placed with it has another machine asked among its choices,
// placing each with the first of those.
func (c *cover) drop(m string) {
	moves := map[string]string{}
	for k, at := range c.first {
		if at != m {
			continue
		}
		i := slices.IndexFunc(c.choices(k), func(o string) bool { return o != m && c.asked[o] })
		if i < 0 {
			return
		}
		moves[k] = c.choices(k)[i]
	}
	for k, to := range moves {
		c.first[k] = to
	}
	delete(c.asked, m)
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

// toFront is list with its i-th element moved first, the others in their order, in a new slice.
func toFront(list []string, i int) []string {
	if i == 0 {
		return list
	}
	out := make([]string, 0, len(list))
	out = append(out, list[i])
	out = append(out, list[:i]...)
	return append(out, list[i+1:]...)
}
