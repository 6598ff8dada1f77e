// Package hedge asks the holders of a set of keys for them, in order, hedging the slow ones: it
// is the one hedging algorithm of the module. The delegate gathers the flights of many sellers
// from the machines holding them (a key per seller, its holders as candidates); the search server
// asks one alliance (a single key) of its delegate and then its alternates.
//
// A Gather is the algorithm as a use-once value: the caller injects the call (Ask), the hedge
// signal (a tick channel) and what to do with each answer (seen), and reads an Outcome. A Policy
// is how often to hedge; Gather.Hedge runs a gather with the ticker the Policy makes.
//
// What it must not do: no network, no etcd, no logging or metrics (callers count what seen and
// the Outcome tell them), and no clock of its own except the ticker a Policy makes, so that the
// tests can drive every scenario with a fake tick channel and no sleeps.
package hedge
