// Package membership watches a test alliance's membership while the test runs: twice a second
// it reads every running machine's GET /status and checks the membership invariant (watch.go),
// failing the test on a violation with the remover's log line when a member was removed.
//
// The harness starts one watch per alliance it starts and tells it what the test does to each
// machine (Started, Set); the watch only reads: it never starts, stops or faults a process.
package membership
