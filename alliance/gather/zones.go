package gather

import "slices"

// SpreadZones orders names to follow first: each next name is the first (in names' order) whose
// zone neither first nor the names already chosen are in, or the first left when every zone is —
// so that a seller's next holder, asked on a failure or a hedge, is in another zone than those
// asked before it whenever one is left. The view orders a seller's backups after its primary so
// (alliance), and fewestCalls the holders after the one it puts first.
func SpreadZones(first, names []string, zoneOf func(string) string) []string {
	seen := map[string]bool{}
	for _, n := range first {
		seen[zoneOf(n)] = true
	}
	out := make([]string, 0, len(names))
	left := slices.Clone(names)
	for len(left) > 0 {
		pick := 0
		for i, n := range left {
			if !seen[zoneOf(n)] {
				pick = i
				break
			}
		}
		seen[zoneOf(left[pick])] = true
		out = append(out, left[pick])
		left = slices.Delete(left, pick, pick+1)
	}
	return out
}
