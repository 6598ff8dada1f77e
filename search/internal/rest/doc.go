// Package rest is what every route of the search server's REST API shares, in whichever of the
// server's packages it is (search, search/booking, search/console): JSON answers and refusals
// ({"error": "..."}), the error that names the parameter or field of bad input (InputError), and
// the strict reading of JSON keys. So all of them answer alike. It must hold no logic of the
// answers themselves.
package rest
