// Package alliance is the airline server: one machine of an alliance. It keeps the sellers the
// placement planner assigns to it (as PRIMARY or BACKUP copies), takes part in placement rounds
// over the coordination tree, serves the IntraClusterService to the other machines and, while it
// is the alliance's delegate, the SellerService to search servers.
//
// The decisions live in pure packages — who holds which seller in alliance/placement, which trips
// a query has in alliance/trip — and this package is the thin driver around them: etcd through
// coord, SOAP through soap, HTTP. It must not decide placement or trips itself, and it must not
// drop a copy of a seller before the round that moved it away has committed on every machine.
package alliance
