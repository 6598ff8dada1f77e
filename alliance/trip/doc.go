// Package trip builds the answer to a search inside an alliance: from the flights that leave the
// origin on the requested day and the flights that reach the destination leaving on that day, the
// direct trips and one-stop connections of docs/api.md ("Trips"), filtered by seller and sorted.
//
// It is a pure function of its inputs, in the style of etcd's raft: no I/O, no clock, no
// randomness, no knowledge of machines or of where the flights came from. The delegate gathers
// the flights and calls Build; every machine given the same flights returns the same list.
package trip
