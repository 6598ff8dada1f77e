package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"flightalliance/search"
)

// writeTable prints the trips in the server's order (by price unless the query sorted otherwise),
// one line each, then a line with how many there are, which window of the whole list they are
// when the query asked for a page, and the controls that shaped the list; then a clear line when
// the answer is incomplete.
func writeTable(w io.Writer, ans search.Answer) {
	q := ans.Query
	route := fmt.Sprintf("from %s to %s on %s%s", q.Src, q.Dst, q.Date, shaping(q))
	total := ans.Total
	if len(ans.Trips) > 0 {
		total = max(total, q.Offset+len(ans.Trips)) // a server that does not count sends 0
	}
	switch {
	case total == 0:
		fmt.Fprintf(w, "no trips %s\n", route)
	case len(ans.Trips) == 0:
		fmt.Fprintf(w, "no trips past the first %d: the whole list has %d %s %s\n", q.Offset, total, plural(total), route)
	default:
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "PRICE\tFLIGHTS\tROUTE\tDEPARTS\tARRIVES\tSELLERS")
		for _, t := range ans.Trips {
			first, last := t.Legs[0], t.Legs[len(t.Legs)-1]
			var flights, route, sellers []string
			route = append(route, first.Src)
			for _, l := range t.Legs {
				flights = append(flights, l.Flight)
				route = append(route, l.Dst)
				if !slices.Contains(sellers, l.Seller) {
					sellers = append(sellers, l.Seller)
				}
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", t.Price, strings.Join(flights, "+"),
				strings.Join(route, "-"), clock(first.Departure), clock(last.Arrival), strings.Join(sellers, ","))
		}
		tw.Flush()
		n := len(ans.Trips)
		switch {
		case n == total:
			fmt.Fprintf(w, "%d %s %s\n", n, plural(n), route)
		case n == 1:
			fmt.Fprintf(w, "trip %d of %d %s\n", q.Offset+1, total, route)
		default:
			fmt.Fprintf(w, "trips %d-%d of %d %s\n", q.Offset+1, q.Offset+n, total, route)
		}
	}
	if line := incompleteLine(ans); line != "" {
		fmt.Fprintln(w, line)
	}
}

func plural(n int) string {
	if n == 1 {
		return "trip"
	}
	return "trips"
}

// shaping says which controls shaped the list, as the server echoed them: "" when none did.
func shaping(q search.QueryEcho) string {
	var parts []string
	if q.Nonstop {
		parts = append(parts, "non-stop")
	}
	if q.MaxPrice != "" {
		parts = append(parts, "at most "+q.MaxPrice)
	}
	if q.Sort != "" && q.Sort != "price" {
		parts = append(parts, "sorted by "+q.Sort)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// clock shows an RFC 3339 instant as "2026-12-01 08:00Z"; anything else as it came.
func clock(s string) string {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return s
	}
	return t.UTC().Format("2006-01-02 15:04Z")
}

// incompleteLine says which alliances did not answer for all their sellers, or "" when the answer
// is complete.
func incompleteLine(ans search.Answer) string {
	if ans.Complete {
		return ""
	}
	var parts []string
	for _, a := range ans.Alliances {
		switch {
		case a.Complete:
		case a.Error != "":
			parts = append(parts, fmt.Sprintf("alliance %s did not answer (%s)", a.Name, a.Error))
		case len(a.MissingSellers) > 0:
			parts = append(parts, fmt.Sprintf("alliance %s is missing sellers %s", a.Name, strings.Join(a.MissingSellers, ", ")))
		default:
			parts = append(parts, fmt.Sprintf("alliance %s did not answer for all its sellers", a.Name))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "the server did not say which alliance is missing")
	}
	return "INCOMPLETE: some trips may be missing: " + strings.Join(parts, "; ")
}
