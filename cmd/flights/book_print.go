package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"flightalliance/search"
)

// writeBooking prints a booking for a person: its ID, status, seats, price and times, then one
// line per leg as the server rendered it.
func writeBooking(w io.Writer, b search.Booking) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "booking\t%s\n", b.ID)
	fmt.Fprintf(tw, "status\t%s\n", b.Status)
	fmt.Fprintf(tw, "alliance\t%s\n", b.Alliance)
	fmt.Fprintf(tw, "seats\t%d\n", b.Seats)
	fmt.Fprintf(tw, "price\t%s\n", b.Price)
	fmt.Fprintf(tw, "created\t%s\n", clock(b.CreatedAt))
	if b.ExpiresAt != "" {
		fmt.Fprintf(tw, "expires\t%s\n", clock(b.ExpiresAt))
	}
	tw.Flush()
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "FLIGHT\tSELLER\tROUTE\tDEPARTS\tARRIVES\tPRICE\tSEATS LEFT")
	for _, l := range b.Legs {
		fmt.Fprintf(tw, "%s\t%s\t%s-%s\t%s\t%s\t%s\t%d\n", l.Flight, l.Seller, l.Src, l.Dst, clock(l.Departure), clock(l.Arrival), l.Price, l.Seats)
	}
	tw.Flush()
}
