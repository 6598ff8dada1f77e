// Package hedge asks the holders of a set of keys for them, in order, hedging the slow ones: it
// is the one hedging algorithm of the module. The delegate gathers the flights of many sellers
// from the machines holding them (a key per seller, its holders as candidates); the search server
// asks one alliance (a single key) of its delegate, then its alternates, then the fallbacks of
// its registration, which Gather.Skip passes over once the delegate or an alternate has answered.
//
// A Gather is the algorithm as a use-once value: the caller injects the call (Ask), the hedge
// signal (a tick channel) and what to do with each answer (seen), and reads an Outcome. A Policy
// is when to hedge and how much: one per caller, shared by all its gathers, it learns every
// target's latency from the answers (a hedge after the target's 95th percentile, within bounds)
// and holds a budget (a token bucket) that keeps hedged calls to a few percent of all calls, so
// that hedging cannot amplify the load that made the targets slow. Gather.Hedge runs a gather
// under a Policy.
//
// What it must not do: no network, no etcd, no logging or metrics (callers count what seen and
// the Outcome tell them), and no clock but the runtime's timers and time.Now, so that the tests
// can drive every scenario in a testing/synctest bubble, on its fake clock, with no sleeps.
package hedge
