// Package search is the search server: it keeps the registrations of the alliances' delegates,
// answers GET /Services/FlightsSearch/flight by asking every registered delegate (SOAP getTrips)
// in parallel, and merges their trips into one answer sorted as API.md says.
//
// Registrations are soft state: a delegate re-registers every few seconds and a registration it
// stops refreshing expires after the configured TTL. Until then it is asked, and when it does not
// answer the search says so (complete: false); an answer is never silently shorter.
//
// The package must not hold flight data, compute trips or reach into an alliance: it only talks
// to delegates through the Delegate interface (the soap client in production). It validates
// every input from outside (query parameters, registration bodies and delegates' answers) and
// never answers 500 to bad input.
package search
