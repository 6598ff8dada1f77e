// Package alliance is the airline server: one machine of an alliance. It keeps the sellers the
// placement planner assigns to it (as PRIMARY or BACKUP copies), takes part in placement rounds
// over the coordination tree, serves the IntraClusterService to the other machines and, while it
// is the alliance's delegate, the SellerService to search servers.
//
// The decisions live in pure packages — who holds which seller in alliance/placement, which trips
// a query has in alliance/trip — and this package is the thin driver around them: etcd through
// coord and coord/member, SOAP through soap, HTTP. It must not decide placement or trips itself,
// and it must not drop a copy of a seller before the round that moved it away has committed on
// every machine.
//
// Where each concern lives (files of one concern share a prefix):
//
//   - the machine: machine.go (Machine, New, Run, the etcd member's incarnations),
//     machine_incarnation.go (the work one incarnation runs, waited for together),
//     machine_leave.go (the graceful leave), config.go (Config and its defaults), settings.go
//     (the alliance-wide settings in /alliances/<a>/config), security.go (tokens and TLS),
//     retry.go (backoff);
//   - membership: membership.go (this machine's session and entry in the tree),
//     membership_entry.go (what a machine entry and a round holding say), tree_keys.go (the
//     alliance's paths in the tree);
//   - the view: view.go, view_read.go, view_departed.go (the alliance as this machine sees it,
//     what it answers, machines whose entry vanished lately), catalog.go (every seller ever
//     given);
//   - rounds: round.go (one round over the barrier), round_loop.go (a round per membership
//     change, and what is kept up between rounds), round_pacer.go (when to run or ask for one;
//     pure);
//   - copies — the sellers' data this machine has: copies.go (the copies themselves),
//     copies_fetch.go (fetching those a round gives), copies_commit.go (adopting a committed plan
//     and publishing the entries), copies_drops.go (the copies given away, dropped once safe;
//     pure);
//   - the delegate: delegate_loop.go (each pass: read the alliance, decide, act), delegate_role.go
//     (who acts as delegate, with which alternates; pure), delegate_registrar.go (when to
//     register; pure), delegate_registration.go (registering with the search servers);
//   - services: service_seller.go (the SellerService, and the machine as the search sees it),
//     service_bookings.go (its booking operations over alliance/ledger),
//     service_booking_flights.go (the flights a booking names), service_intra.go (the
//     IntraClusterService);
//   - what the machine shows: status.go (/status, /healthz), ready.go (Readiness, behind an
//     orchestrator's /readyz), metrics.go (/metrics), status_removals.go (the etcd member
//     removals shown and counted).
//
// Why one package of some thirty files: they are one Machine's parts, sharing its state — the
// view, the copies, the session, the metrics — under one discipline of locks, and each concern's
// files call the others' (a round reads the view and commits copies; the delegate reads the view
// and the copies' versions). Splitting them would export the Machine's internals to its own
// parts. What can stand alone already does: every decision is a package of its own (placement,
// trip, booking), and so are the delegate's search (gather), the bookings' record (ledger) and
// the SOAP forms (wire); the pure parts left here (delegate_role.go, delegate_registrar.go,
// round_pacer.go, copies_drops.go) are values in, values out, tested as such.
//
// Words: a "copy" is this machine's data of one seller (the copies type); "etcd" is the
// coordination store all machines share, read through the tree — the two are never both called
// a store.
package alliance
