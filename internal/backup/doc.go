// Package backup saves, verifies and restores etcd snapshots of an alliance's coordination
// tree. The tree is the system of record for bookings (docs/api.md, "Bookings"): everything else in
// it — placement, sessions, rounds — the machines rebuild from their flight files, but the
// bookings, seat counters and idempotency records exist nowhere else.
//
// Save streams a snapshot from one member (the leader, which has applied every acknowledged
// write) into a temporary file, verifies it and only then renames it to the name asked for, so
// a file under that name is always a whole, checked snapshot. Verify checks what etcd appends
// to a snapshot (a sha256 of the database) and the database itself (bbolt's consistency check,
// etcdutl's Status), and reads the bookings in it. Restore writes the data directory of one
// member of a new cluster from a snapshot, as `etcdutl snapshot restore` does (it calls the
// same code), into a temporary directory renamed into place when complete.
//
// It never writes into an existing member's data directory and never talks to an airline
// server: it speaks etcd only (alliancectl backup and restore are its callers).
package backup
