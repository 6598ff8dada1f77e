// Command flights is the command users type: `flights search` asks a search server and prints
// the trips as a table sorted by price (or the raw JSON), and `flights generate` writes flight
// data files (one CSV per seller) for airline servers to load.
//
// It is flag parsing and wiring only: validation of data belongs to alliance/flight, the answer's
// shape to search. It must not compute or re-sort trips; it prints what the server answered.
//
// Exit codes: 0 ok, 1 bad usage or bad input (the message names the flag), 2 the search server
// is unreachable, failed, or gave an incomplete answer.
package main
