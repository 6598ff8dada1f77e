// Package placement decides which machine of an alliance holds which seller, as PRIMARY and as
// BACKUP. It is the deterministic planner every machine runs on the same snapshot of the
// alliance, so that all of them compute the same assignment without a leader (DESIGN.md,
// "Placement").
//
// Plan is a pure function: a Snapshot in, a Result out. It must not do I/O, read a clock, draw
// random numbers or let map iteration order reach its output; every choice is "the first in a
// defined order", and the Result does not depend on the order of machines or seller lists in the
// Snapshot. It does not fetch, drop or publish anything: the airline server does that with the
// Result.
//
// # Processing order
//
// Plan works on the snapshot in five steps, each on the outcome of the previous one:
//
//  1. Old versions. A seller that a joiner brings replaces every existing copy of it: those
//     copies are no longer data sources and are dropped. When two joiners bring the same
//     seller, the one with the smallest name wins; the other's copy is dropped too.
//  2. Leavers. Machines that leave gracefully hold nothing afterwards. Their copies become lost
//     primaries and lost backups, but they stay valid fetch sources for this round.
//  3. Repair (the seed's failure algorithm) on the machines that neither join nor leave: lost
//     primaries go, in seller order, to the least-loaded machines; a machine that has the
//     seller's data (its backup holder) is preferred, so the backup is promoted in place and no
//     data moves; the seller then needs a new backup. Lost backups go to the least-loaded
//     machines that do not hold the seller as primary, preferring one that already has the data.
//  4. Joins, one joiner at a time in name order (the seed's join algorithm). The first machine
//     of an alliance takes every seller as primary and holds no backups. The second machine
//     mirrors the first: each becomes the backup of the other's primaries. Otherwise the
//     joiner's sellers need backups, which go to the least-loaded machines. In every case the
//     primaries and then the backups are balanced: machines above the average give sellers to
//     the least-loaded machines below it, never a seller the receiver holds as primary when it
//     would be a backup. A joiner that brings many sellers gives some of its own away.
//  5. The result: the final assignment is compared with the snapshot. A machine that must hold
//     a copy it has no data for fetches it (a Transfer, from a machine that held or brought the
//     copy in the snapshot); a backup that became primary where it is is a Promotion; a copy a
//     machine had and no longer holds is a Drop; a seller that nobody can hold is Lost.
//
// Because transfers are derived from the snapshot and the final assignment, a seller is fetched
// at most once per role per round, even when steps 3 and 4 both moved it.
//
// # Balance and movement
//
// With S sellers on n machines, every machine ends with ⌊S/n⌋ or ⌈S/n⌉ primaries, and likewise
// backups. Which machines get the extra one is chosen to keep data where it is: a machine that
// already holds more, or that can take a lost seller by promotion, keeps or gets the larger
// share. Data moves only for three reasons: a copy was lost (failure, leave, old version), a
// machine holds more copies of a role than its share (it gives exactly the surplus), or a
// machine is below its share (it receives exactly the deficit). Sellers are given away in this
// order of preference: copies the giver has no data for yet, copies another machine can take
// without moving data, then by name. Backups are placed so that a seller never lands on its own
// primary: when a machine's own primaries waiting for backups would need more room than the
// other machines have, it takes backups from the most loaded machines first (the joiner's
// "take from the others"), and placement takes the most constrained sellers first. As a last
// resort a backup is placed by shifting others along a path; each shift is one more transfer.
//
// Bound: for a single failure or leave, the copies fetched equal the copies lost (each lost
// primary is promoted on its backup holder where that machine has room, else fetched once; each
// lost backup is fetched once) plus what the new average forces. Rounds that combine a join
// with other events move more than strictly necessary, because the joins are balanced one at a
// time and earlier choices do not foresee later joiners; the tests measure this against a lower
// bound (see bound_test.go).
package placement
