// Package goroutines reads a process's goroutine profile (/debug/pprof/goroutine?debug=1) and
// tells the goroutines of connections kept open between requests (bounded by the pools, not a
// leak) from the rest, which the leak tests count round after round.
//
// It only parses text: it starts nothing and reads no network; the tests that fetch the
// profiles from running processes live in tests' process suites.
package goroutines
