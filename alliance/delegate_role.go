package alliance

import "time"

// The delegate loop's decision, with no I/O: from one pass's view of the alliance (delegatePass),
// whether this machine acts as the alliance's delegate and which machines it names as alternates.
// delegate_loop.go gathers the pass and carries the decision out (delegate_registration.go).

// delegatePass is what one pass of the delegate loop decides from: the view and this machine's
// state as read at the start of the pass, and how to learn more when the decision needs it.
type delegatePass struct {
	self    string
	entries []machineEntry // the view's live machines, sorted by name
	quorum  bool           // this machine's etcd member sees a quorum
	leaving bool           // this machine is leaving the alliance
	now     time.Time
	// copies lists the sellers the alliance knows and where their copies are; it is asked only
	// without quorum.
	copies func() []sellerCopy
	// probe is a machine's health check (GET /healthz at url); a machine that does not answer
	// is health{}.
	probe func(url string) health
	// unseenBefore reports whether etcd lists, now, a machine ranked before this one that
	// the view does not have yet: the view lags its watch. It is asked only before this machine,
	// acting with quorum (a read of etcd needs it), registers; nil: never.
	unseenBefore func() bool
}

// sellerCopy is where one seller's data is, for the delegate's decision without quorum.
type sellerCopy struct {
	seller  string
	here    bool     // this machine has a copy
	holders []string // otherwise, the machines that may have one, in the order to ask them
}

// delegateDecision is what one pass decides.
type delegateDecision struct {
	acting      bool     // this machine acts as the delegate
	alternates  []string // the alternates a registration names
	roleChanged bool     // acting differs from the previous pass
	register    bool     // register with every search server now
}

// delegateRole is the delegate loop's memory between passes (the registrar's). It holds no
// I/O: the loop hands it each pass and does what it decides.
type delegateRole struct {
	reg registrar
}

// step decides one pass: who acts (actsAsDelegate), the alternates to name (alternatesOf), and
// whether the registration is due (registrar.step — never while this machine leaves, though it
// acts until its entry is gone).
//
// A machine registers only on a view that has caught up with etcd: a machine whose watch
// lags (a busy member, one that just joined) can see itself first in line while the delegate's
// entry is already in etcd, and its registration would replace the delegate's with one that
// names no alternates. Before every registration with quorum it reads etcd, and while its
// view lacks a machine ranked before it, it does not act; the next pass (a change of the view, or
// the loop's second) decides again.
func (r *delegateRole) step(p delegatePass) delegateDecision {
	d := delegateDecision{acting: actsAsDelegate(p), alternates: alternatesOf(p.entries, p.self)}
	if d.acting && p.quorum && !p.leaving && r.reg.due(d.alternates, p.now) && p.unseenBefore != nil && p.unseenBefore() {
		d.acting = false
	}
	d.roleChanged, d.register = r.reg.step(d.acting, p.leaving, d.alternates, p.now)
	return d
}

// actsAsDelegate reports whether this machine should act as the delegate: it is the live
// machine with the smallest name in the view, or every machine ranked before it in the view
// fails its health check — a killed or cut-off delegate is replaced within a second or two,
// without waiting for its lease to expire, and even when etcd has lost quorum and cannot expire
// it at all. Two machines may both register for a while; the search server keeps the latest
// registration with its alternates, and either answers correctly. A leaving machine is in line
// like any other until its entry is gone: it serves until then.
func actsAsDelegate(p delegatePass) bool {
	if len(p.entries) == 0 {
		return false
	}
	if !p.quorum {
		// Without quorum this machine cannot tell "the others are dead" from "I am cut off", and
		// the view keeps the dead machines' entries (their leases cannot expire). A machine it
		// reaches that has quorum belongs to the side that decides: that side names the
		// delegate (a machine cut off only one way — it reaches the others, they do not reach
		// it — would otherwise register too, alternating with the real delegate). With no
		// quorum anywhere it reaches, it acts only while its copies and those of the machines
		// it reaches cover every seller: a cut-off machine with part of the data would register
		// answers that are always incomplete.
		if quorumAmong(p) || !reachableCover(p) {
			return false
		}
	}
	for _, e := range p.entries {
		if e.Name >= p.self {
			break
		}
		if p.probe(e.URL).OK {
			return false
		}
	}
	return true
}

// quorumAmong reports whether a machine of the view other than this one answers and has quorum.
func quorumAmong(p delegatePass) bool {
	for _, e := range p.entries {
		if e.Name != p.self && p.probe(e.URL).Quorum {
			return true
		}
	}
	return false
}

// reachableCover reports whether every seller the alliance knows has a copy here or, as the
// view says, on a machine this one reaches. A holder the view no longer has cannot be reached.
func reachableCover(p delegatePass) bool {
	urls := make(map[string]string, len(p.entries))
	for _, e := range p.entries {
		urls[e.Name] = e.URL
	}
	for _, c := range p.copies() {
		if c.here {
			continue
		}
		covered := false
		for _, holder := range c.holders {
			if url, ok := urls[holder]; ok && holder != p.self && p.probe(url).OK {
				covered = true
				break
			}
		}
		if !covered {
			return false
		}
	}
	return true
}

// maxAlternates is how many other machines a registration names as alternates.
const maxAlternates = 4

// alternatesOf are the SellerService URLs of the machines a search server should ask when the
// delegate self fails or is slow: the other live machines of the view (entries, sorted by name),
// those after self in name order first (the delegate's successors), then those before it (which
// it found unreachable, or it would not act), at most maxAlternates. Any machine can answer
// getTrips for the whole alliance.
func alternatesOf(entries []machineEntry, self string) []string {
	var after, before []string
	for _, e := range entries {
		switch {
		case e.Name > self:
			after = append(after, e.URL+sellerPath)
		case e.Name < self:
			before = append(before, e.URL+sellerPath)
		}
	}
	all := append(after, before...)
	return all[:min(len(all), maxAlternates)]
}
