// Package coord is the alliance's coordination layer: an etcd member embedded
// in every airline server, and ZooKeeper-style primitives on top of it.
//
// It provides
//   - the member lifecycle (Start, Leave, Close, Recover): bootstrap from a peer
//     list, join a running cluster as a learner and get promoted, restart from a
//     data dir, move a removed member's data aside and join fresh, a reconciler
//     on the raft leader that removes dead members and promotes learners, and
//     quorum-loss detection;
//   - voters across zones (Config.Zone, Config.PeerZones, Member.Zones): at
//     most MaxVoters voters, chosen round-robin over the zones (zones in name
//     order, each zone's members in name order) at bootstrap and on
//     promotion, so that the loss of any one zone of three or more keeps a
//     quorum;
//   - sessions (a lease kept alive in the background);
//   - a Tree of absolute paths whose etcd keys are the paths themselves, with
//     ephemeral nodes, versions, atomic Multi and resumable Watch;
//   - Follow and Mirror: a folder of the tree kept as local state, by one
//     listing and then a watch from the revision after it;
//   - a decisive double Barrier, fenced exclusive and shared locks, a
//     lowest-name election and a lease election, and event callbacks.
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
// What it must not do: import anything but etcd and the standard library
// (plus etcd's own logger, zap, to quiet it); know about airlines, sellers
// or placement; and ever force a new etcd cluster on its own. Under quorum
// loss it reports the loss and waits; only the explicit operator action
// Recover forces a new cluster.
package coord
