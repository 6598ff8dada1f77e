// Package merge is the pure core of a search: it turns the answers of the alliances' delegates
// (their getTrips responses, or why they gave none) and a validated query into the one answer the
// search server sends — every trip checked against the query and the contract (airports, prices,
// instants, a price that is the sum of its legs, no flight shown twice), stamped with its
// alliance, filtered, sorted in the query's order (contract.Compare, the airline's own order,
// then the alliance), cut to the page, counted, and each alliance's completeness said. It also
// writes that answer's JSON, byte for byte what encoding/json would, without making its trips.
//
// Values in, values out: it must not do HTTP or any other I/O, read the clock, log, or keep
// state between calls. The search server (package search) asks the delegates, times them out
// and writes the bytes; this package only decides what the answer is, so that every rule of the
// answer is tested here without a server.
package merge
