// Package member is the alliance's embedded etcd member: the lifecycle of the
// etcd server that runs inside every airline server, and the cluster
// maintenance that member does while it runs.
//
// It provides
//   - the lifecycle (Start, Leave, Close, Recover): bootstrap from a peer
//     list, join a running cluster as a learner and get promoted, restart from
//     a data dir, move a removed member's data aside and join fresh, and
//     quorum-loss detection (Member.QuorumChanges);
//   - a reconciler on the raft leader that removes members unreachable for
//     longer than Config.DeadGrace, revokes the sessions they owned, and
//     promotes learners; every removal is recorded (Removal, Member.Removals)
//     and reported (Config.OnRemoval);
//   - voters across zones (Config.Zone, Config.PeerZones, Member.Zones): at
//     most MaxVoters voters, chosen round-robin over the zones (zones in name
//     order, each zone's members in name order) at bootstrap and on
//     promotion, so that the loss of any one zone of three or more keeps a
//     quorum;
//   - Member.NewSession: a coord.Session owned by this member, which the
//     reconciler ends when it removes the member.
//
// Why a package of its own: these are the files that need etcd's server
// (server/embed to run it, its membership types to reconcile, gRPC server
// options to guard its stop), or that are methods of the running Member.
// The recipes on a client (sessions, the tree, locks, elections, barriers,
// watches) stay in coord, which this package imports and which must never
// import this one: a client of an alliance's etcd does not link a server.
//
// Its own keys are under /coord/ (etcdctl get --prefix /coord/):
//   - /coord/zones/<member name> = the member's zone: written by the member
//     once it runs (a joiner before it is added), rewritten only when its
//     Zone changed, deleted by whoever removes the member; read by the
//     reconciler when a promotion is due, and by Member.Zones;
//   - /coord/removals/<member name> = the JSON of its last Removal;
//   - /coord/sessions/<member name>/<lease> = "", one per session of
//     Member.NewSession, bound to its lease;
//   - /coord/join-lock/<lease>: the lock that serializes joins.
//
// What it must not do: import anything but etcd, coord, internal/pki (its
// TLS files) and the standard library (plus etcd's own logger, zap, to quiet
// it, and gRPC for its server options); know about airlines, sellers or placement; and ever force
// a new etcd cluster on its own. Under quorum loss it reports the loss and
// waits; only the explicit operator action Recover forces a new cluster.
package member
