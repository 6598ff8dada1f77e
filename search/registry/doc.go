// Package registry keeps the search server's registrations of the alliances' delegates: one per
// alliance name, refreshed by the delegate re-registering every few seconds, marked stale (never
// dropped) when a refresh is late by more than the TTL, and removed only when unregistered. A
// registration names whom to ask for its alliance — the delegate, its alternates, then the
// fallbacks of the registrations it replaced (Registration.Targets, FallbackUsable).
//
// It is state and rules only: it must not do HTTP (the search server's handlers decode and
// authorize registrations), call delegates, or read the clock but through the now it is given.
package registry
