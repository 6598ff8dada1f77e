// Package integration holds tests that build the real binaries and run them as processes on
// free loopback ports: alliances of airline servers with embedded etcd, a search server, the
// flights client. They kill machines with SIGKILL, restart them with the same command line and
// check the answers against a brute-force reference and the placement invariants read from etcd.
// Nothing here is imported by the product.
package integration
