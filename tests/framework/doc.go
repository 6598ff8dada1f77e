// Package framework is the importable harness of the process tests. It builds the binaries once
// per test package (Main); starts and stops their processes (StartProc, Proc: kill, signal,
// restart with the same command line, logs kept on a failure) and search servers as make run
// starts them (StartSearch); makes the package's keys (SetupKeys: a CA, the tester's
// certificate, a token per alliance, the search servers' trust file); picks free ports and waits
// for conditions.
//
// Its subpackages are the harness's other parts: the membership watch every test alliance runs
// under (membership) and the goroutine-profile reader of the leak tests (goroutines). The fault
// network and the airline command line are internal/faultnet and internal/airlinecmd, which
// alliancectl shares.
//
// It is test code outside _test.go files so that several test packages can import it; the
// product never imports it.
package framework
