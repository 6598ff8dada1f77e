// Package faultnet is the project's one set-up of toxiproxy: proxies, in this process, in front of
// a server's ports, and the faults put on them. A partition holds every byte in each direction
// and never closes (a timeout toxic of 0: a silent blackhole, what etcd's robustness tests call
// blackholing a member's network); a wide-area delay holds each byte for a one-way latency in each
// direction. alliancectl's proxy daemon and the process tests' fault network both build on it.
//
// It only forwards bytes and adds toxics: which processes get proxies, and when they are cut off,
// is its callers' business.
package faultnet
