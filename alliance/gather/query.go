package gather

import (
	"slices"
	"sort"
	"strings"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/trip"
	"flightalliance/soap"
)

// controls are a getTrips request's optional controls, checked.
type controls struct {
	filter trip.Filter
	order  trip.Order
	max    int // 0: the whole list
}

// parseQuery validates a getTrips request; a bad field gets a Client fault naming it.
func parseQuery(req *soap.GetTripsRequest, minConnection time.Duration) (trip.Query, controls, error) {
	var ctl controls
	if !flight.ValidIATA(req.Src) {
		return trip.Query{}, ctl, soap.ClientFault("Src: %q is not an IATA airport code (three upper-case letters)", req.Src)
	}
	if !flight.ValidIATA(req.Dst) {
		return trip.Query{}, ctl, soap.ClientFault("Dst: %q is not an IATA airport code (three upper-case letters)", req.Dst)
	}
	if req.Src == req.Dst {
		return trip.Query{}, ctl, soap.ClientFault("Dst: must differ from Src (%s)", req.Src)
	}
	d, err := flight.ParseDate(req.Date)
	if err != nil {
		return trip.Query{}, ctl, soap.ClientFault("Date: %q is not a date (YYYY-MM-DD)", req.Date)
	}
	var sellers []string
	for _, s := range req.Sellers {
		for _, part := range strings.Split(s, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			if !flight.ValidSeller(part) {
				return trip.Query{}, ctl, soap.ClientFault("Sellers: %q is not a seller code", part)
			}
			sellers = append(sellers, part)
		}
	}
	sort.Strings(sellers)
	sellers = slices.Compact(sellers)
	if req.MaxTrips < 0 {
		return trip.Query{}, ctl, soap.ClientFault("MaxTrips: %d, want 1 or more (or leave it out for the whole list)", req.MaxTrips)
	}
	ctl.max = req.MaxTrips
	ctl.filter.Nonstop = req.Nonstop
	if req.MaxPrice != "" {
		p, err := flight.ParseCents(req.MaxPrice)
		if err != nil {
			return trip.Query{}, ctl, soap.ClientFault("MaxPrice: %q is not a price (such as 512.00)", req.MaxPrice)
		}
		ctl.filter.MaxPrice, ctl.filter.HasMaxPrice = p, true
	}
	if ctl.order, err = trip.ParseOrder(req.Sort); err != nil {
		return trip.Query{}, ctl, soap.ClientFault("Sort: %v", err)
	}
	return trip.Query{Src: req.Src, Dst: req.Dst, Date: d, Sellers: sellers, MinConnection: minConnection}, ctl, nil
}

// cacheKey is the canonical query without its controls (applied to the cached list).
func cacheKey(q trip.Query) string {
	return q.Src + "|" + q.Dst + "|" + q.Date.String() + "|" + strings.Join(q.Sellers, ",")
}
