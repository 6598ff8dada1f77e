package alliance

import (
	"context"
	"errors"
	"maps"
	"slices"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/gather"
	"flightalliance/alliance/trip"
	"flightalliance/soap"
)

// sellerService is the SellerService: getTrips, answered by the delegate for the whole alliance
// (alliance/gather), and the bookings (service_bookings.go, alliance/ledger), which any machine can take.
func (m *Machine) sellerService() soap.Service {
	return soap.SellerService(
		soap.Op(soap.OpGetTrips, m.search.GetTrips),
		soap.Op(soap.OpReserve, m.reserve),
		soap.Op(soap.OpCancel, m.cancel),
		soap.Op(soap.OpConfirm, m.confirm),
		soap.Op(soap.OpGetBooking, m.getBooking),
		soap.Op(soap.OpGetSeats, m.getSeats),
	)
}

// searchAlliance is the machine as the search sees it (gather.Alliance).
type searchAlliance struct{ m *Machine }

func (a searchAlliance) Ready() bool {
	m := a.m
	return m.view.isListed() && m.catalog.isListed() && m.seats.Listed()
}

func (a searchAlliance) Sellers() []string { return a.m.knownSellers() }

// Candidates are a seller's holders in the view's order, this machine first when it holds one
// of the seller's copies (view.candidatesFrom); alike, how many from the first hold it at its
// current version.
func (a searchAlliance) Candidates(seller string) (machines []string, alike int) {
	return a.m.view.candidatesFrom(a.m.cfg.Name, seller)
}

// Zone is the zone of a machine of the view (view.zoneOf).
func (a searchAlliance) Zone(machine string) string { return a.m.view.zoneOf(machine) }

// Ask answers from this machine's copies when machine is this one; otherwise it asks the holder
// within the call timeout, for the sides asked only — a machine no longer in the view for the
// versions of its last entry (view.departedAt). A holder that fails is logged and counted,
// and covers nothing; a departed one is then left alone for a while (view.departedProbe). A
// holder is heard when it answered, with flights or a fault.
func (a searchAlliance) Ask(ctx context.Context, machine string, q trip.Query, sides gather.Sides, sellers []string) (src, dst []flight.Flight, covered []string, heard bool) {
	m := a.m
	if machine == m.cfg.Name {
		// Both sides from the same copies, taken once: a copy committed between two lookups
		// would give one side of the old version and the other of the new.
		served := m.copies.served(sellers)
		if _, live := m.view.url(machine); !live {
			// This machine's own entry vanished: only its copies at the versions its last
			// entry named, as another machine would ask it (view.departedAt).
			_, versions, _ := m.view.departedAt(machine, sellers)
			want := versionsBySeller(versions)
			served = slices.DeleteFunc(served, func(sel *flight.Seller) bool {
				ver, named := want[sel.Code()]
				return !named || ver != sel.Version()
			})
		}
		for _, sel := range served {
			covered = append(covered, sel.Code())
		}
		if sides&gather.FromSrc != 0 {
			src = relevantOf(served, q.Src, q.Date, (*flight.Seller).BySrc)
		}
		if sides&gather.ToDst != 0 {
			dst = relevantOf(served, q.Dst, q.Date, (*flight.Seller).ByDst)
		}
		return src, dst, covered, true
	}
	base, ok := m.view.url(machine)
	var versions []soap.SellerVersion
	var departed departedCall
	if !ok {
		// Not live: a machine whose entry vanished lately (view_departed.go), asked for the
		// versions its last entry named, unless it failed a call lately.
		if base, versions, ok = m.view.departedAt(machine, sellers); !ok {
			return nil, nil, nil, false // no call made
		}
		if departed, ok = m.view.departedProbe(machine); !ok {
			return nil, nil, nil, false
		}
		// Only the sellers it can be asked for at a version: the others it would answer from
		// whatever copy it has.
		sellers = make([]string, len(versions))
		for i, v := range versions {
			sellers[i] = v.Seller
		}
		m.metrics.departedAsks.Inc()
	}
	callCtx, cancel := context.WithTimeout(ctx, m.cfg.CallTimeout)
	defer cancel()
	src, dst, covered, err := gather.AskHolder(callCtx, m.clients.get(base), q, sides, sellers, versions)
	outcome := callAnswered
	switch {
	case err != nil && ctx.Err() != nil:
		outcome = callAbandoned // the gather is over (another holder answered first): not a holder error
	case err != nil:
		outcome = callFailed
		m.log.Warn("holder did not answer; asking the next holder", "holder", machine, "sellers", sellers, "sides", sides.String(), "err", err)
		m.metrics.holderErrors.Inc()
	}
	if versions != nil { // a departed machine: how the call went decides when it is asked again
		m.view.departedAnswered(departed, outcome)
	}
	if outcome != callAnswered {
		_, fault := errors.AsType[*soap.Fault](err)
		return nil, nil, nil, fault
	}
	return src, dst, covered, true
}

// knownSellers is every seller of the alliance: in its catalog, seen held, brought by this
// machine or by a joining one, sorted. A joiner records its sellers in the catalog before its
// machine entry, but the catalog and the machines are watched apart: a search that saw the
// joiner's entry (its caches emptied) must not answer without the sellers it brings, as if
// complete, because the catalog's news is late.
func (m *Machine) knownSellers() []string {
	set := map[string]bool{}
	for _, list := range [][]string{m.copies.broughtCodes(), m.catalog.list(), m.view.everHeld(), m.view.brought()} {
		for _, s := range list {
			set[s] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}
