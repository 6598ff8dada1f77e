// Package coord is the alliance's coordination recipes: ZooKeeper-style
// primitives over any *clientv3.Client, in the place etcd gives its own
// client/v3/concurrency.
//
// It provides
//   - sessions (a lease kept alive in the background, resumed while the lease
//     lives);
//   - a Tree of absolute paths whose etcd keys are the paths themselves, with
//     ephemeral nodes, versions, atomic Multi and resumable Watch;
//   - Follow and Mirror: a folder of the tree kept as local state, by one
//     listing and then a watch from the revision after it;
//   - a decisive double Barrier, fenced exclusive and shared locks, a
//     lowest-name election and a lease election, and event callbacks.
//
// The etcd member that serves these keys inside every airline server is
// coord/member. The cut between the two follows the imports: every file
// here needs only a client, while every file of coord/member needs the
// embedded server (etcd's server/embed, its membership types, its gRPC
// options) or is a method of the running Member (its sessions, zones and
// removals). So a process that only talks to an alliance's etcd, as a tool
// or a test does, builds coord without linking an etcd server, and
// coord/member may use these recipes while coord never uses the member.
//
// What it must not do: import etcd's server packages (go list -deps
// ./coord shows none) or coord/member; know about airlines, sellers or
// placement; or keep keys of its own outside the paths its callers give it.
package coord
