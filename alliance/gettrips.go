package alliance

import (
	"context"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/trip"
	"flightalliance/soap"
)

// sellerService is the SellerService: getTrips, answered by the delegate for the whole alliance,
// and the bookings (bookings.go), which any machine can take.
func (m *Machine) sellerService() soap.Service {
	return soap.SellerService(
		soap.Op(soap.OpGetTrips, m.getTrips),
		soap.Op(soap.OpReserve, m.reserve),
		soap.Op(soap.OpCancel, m.cancel),
		soap.Op(soap.OpConfirm, m.confirm),
		soap.Op(soap.OpGetBooking, m.getBooking),
		soap.Op(soap.OpGetSeats, m.getSeats),
	)
}

// getTrips asks one holder of every needed seller for the flights out of src and into dst on the
// date, builds direct trips and connections with the pure trip builder, and answers them sorted,
// filtered and cut as the request's controls ask, each leg showing the seats left now. A seller no
// holder answered for is named in MissingSellers; the answer is never silently short.
func (m *Machine) getTrips(ctx context.Context, req *soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
	start := time.Now()
	q, ctl, err := m.tripQuery(req)
	if err != nil {
		return nil, err
	}
	if !m.view.isListed() || !m.catalog.isListed() || !m.seats.Listed() {
		// Until this machine has read the alliance's machines and catalog once it does not know
		// every seller, and an answer could look complete while missing some; until it has read
		// the booked seats, it would show seats already sold.
		return nil, soap.ServerFault("not ready: this machine has not read the alliance's state yet")
	}
	key := cacheKey(q)
	list, gen, ok := m.cache.get(key)
	var missing []string
	if ok {
		m.metrics.cacheHits.Inc()
	} else {
		if m.cache.enabled() {
			m.metrics.cacheMisses.Inc()
		}
		want := m.knownSellers()
		if len(q.Sellers) > 0 {
			want = slices.DeleteFunc(want, func(s string) bool { return !slices.Contains(q.Sellers, s) })
		}
		var fromSrc, toDst []flight.Flight
		fromSrc, toDst, missing = m.gather(ctx, q, want)
		list = newTripList(trip.Build(q, fromSrc, toDst))
		if len(missing) == 0 {
			m.cache.add(key, list, gen)
		}
	}
	page, total := list.page(ctl, m.cfg.Alliance, m.cache.enabled() && len(missing) == 0)
	resp := &soap.GetTripsResponse{
		Alliance:       m.cfg.Alliance,
		Trips:          withSeatsLeft(page, m.seats),
		Complete:       len(missing) == 0,
		MissingSellers: missing,
		Total:          total,
	}
	result := "miss"
	if ok {
		result = "hit"
	}
	m.metrics.searchSeconds.WithLabelValues(result).Observe(time.Since(start).Seconds())
	return resp, nil
}

// controls are a getTrips request's optional controls, checked.
type controls struct {
	filter trip.Filter
	order  trip.Order
	max    int // 0: the whole list
}

// tripQuery validates a getTrips request; a bad field gets a Client fault naming it.
func (m *Machine) tripQuery(req *soap.GetTripsRequest) (trip.Query, controls, error) {
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
	return trip.Query{Src: req.Src, Dst: req.Dst, Date: d, Sellers: sellers, MinConnection: m.cfg.MinConnection}, ctl, nil
}

func cacheKey(q trip.Query) string {
	return q.Src + "|" + q.Dst + "|" + q.Date.String() + "|" + strings.Join(q.Sellers, ",")
}

// gather collects the flights of every wanted seller from the holders the view names, in order
// (see the gather type): a seller no holder answered for is missing.
func (m *Machine) gather(ctx context.Context, q trip.Query, want []string) (fromSrc, toDst []flight.Flight, missing []string) {
	candidates := make(map[string][]string, len(want))
	for _, s := range want {
		candidates[s] = m.view.candidates(s)
	}
	ask := func(ctx context.Context, machine string, sellers []string) (src, dst []flight.Flight, covered []string) {
		return m.askHolder(ctx, machine, q, sellers)
	}
	got := gatherFlights(ctx, want, candidates, m.cfg.HedgeAfter, ask)
	if got.hedged > 0 {
		m.metrics.hedges.Add(float64(got.hedged))
	}
	return got.fromSrc, got.toDst, got.missing
}

// knownSellers is every seller of the alliance: in its catalog, seen held, or brought by this
// machine, sorted.
func (m *Machine) knownSellers() []string {
	set := map[string]bool{}
	for _, s := range m.store.broughtCodes() {
		set[s] = true
	}
	for _, s := range m.catalog.list() {
		set[s] = true
	}
	for _, s := range m.view.everHeld() {
		set[s] = true
	}
	return slices.Sorted(maps.Keys(set))
}
