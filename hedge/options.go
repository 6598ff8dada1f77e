package hedge

// Class names the kind of calls g makes, when one caller makes calls of very different sizes to
// the same targets (a page of 20 trips and a whole list of thousands): a Policy learns the
// latencies of each class apart, so that the small calls do not make the large ones look slow.
// It returns g.
func (g *Gather[A]) Class(class string) *Gather[A] {
	g.class = class
	return g
}

// Skip makes g pass over, when its turn comes, every candidate for which skip reports true: no
// call is made, and the key goes on to its next candidate (or is missing). skip is called in
// Run's goroutine, as the candidate would be asked, so it may depend on the answers seen so far.
// It returns g.
func (g *Gather[A]) Skip(skip func(target string) bool) *Gather[A] {
	g.skip = skip
	return g
}

// Heard tells g which values of Ask came from their target — an answer, a refusal included — as
// against none: a call that ended at its own deadline, a connection refused or reset. A Policy
// learns only from the first kind, so that a paused target whose calls keep timing out still
// looks silent, and is hedged away from without the budget. Without Heard every value returned
// before the gather ended counts as an answer. It returns g.
func (g *Gather[A]) Heard(heard func(answer A) bool) *Gather[A] {
	g.heard = heard
	return g
}
