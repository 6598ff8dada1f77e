// Package contract holds the rules the airline servers and the search server must apply alike,
// written once so that the two sides cannot drift apart: the orders a list of trips is sorted
// in and how two trips compare (order.go), prices as integer cents and their decimal text
// (cents.go), and what an IATA airport code, a seller code and a flight number are (iata.go,
// codes.go).
//
// The search server merges the tops of the alliances' lists into the top of the whole list; that
// is right only when both sides sort by the same comparison. It refuses a delegate's answer with
// a price or an airport it cannot read; that is right only when it reads what the airlines write.
//
// It is a leaf: it imports only the standard library, holds no state, does no I/O and knows
// neither side's types (a trip is read through the Trip interface).
package contract
