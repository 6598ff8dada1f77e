// Package framework is the importable harness of the process tests: it builds the binaries once
// per test package (Main), starts and stops their processes (StartProc, Proc: kill, signal,
// restart with the same command line, logs kept on a failure), makes the package's keys (a CA,
// the tester's certificate, a token per alliance, the search servers' trust file: SetupKeys),
// picks free ports, waits for conditions. Its subpackages hold the harness's other parts: the membership watch every test
// alliance runs under (membership) and the goroutine-profile reader of the leak tests
// (goroutines); the fault network and the airline command line are internal/faultnet and
// internal/airlinecmd, which alliancectl shares.
//
// It is test code that is not in _test.go files so that several test packages can import it;
// the product never imports it.
package framework
