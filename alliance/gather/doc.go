// Package gather is the delegate's search: getTrips for the whole alliance. It asks one holder of
// every seller for the flights out of the query's source and into its destination (hedging to the
// next holder through package hedge), builds direct trips and connections with the pure trip
// builder, caches the whole price-ordered list per query, and answers the page the request's
// controls ask for, each leg showing the seats left now (from the ledger's followed counters).
// A seller no holder answered for is named in the answer; an answer is never silently short.
//
// It reaches its machine only through the Alliance interface (who holds what, asking one
// holder); it must not know etcd, placement or bookings beyond the seats left.
package gather
