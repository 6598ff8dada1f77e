// Package airlinecmd builds the command line of an airline server that is a machine of an
// alliance: the one place that knows which flags such a machine runs with. alliancectl (up, add)
// and the process tests' harness both start machines with it, so a flag added to the servers is
// passed the same way by both, and a machine the tests start runs as an operator's would.
//
// It is a leaf beside the commands rather than part of the test harness so that alliancectl, a
// shipped command, imports no test code. It only builds arguments: it defines no flag (the
// servers' flags are cmd/airline's), checks nothing and starts nothing.
package airlinecmd
