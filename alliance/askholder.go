package alliance

import (
	"context"
	"slices"
	"sync"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/trip"
	"flightalliance/soap"
)

// askHolder asks one machine for both sides of a query, for the given sellers. covered is the
// sellers it answered for on both sides; their flights are the only ones returned.
func (m *Machine) askHolder(ctx context.Context, machine string, q trip.Query, sellers []string) (src, dst []flight.Flight, covered []string) {
	if machine == m.cfg.Name {
		src, srcCovered := m.localRelevant(q.Src, q.Date, sellers, (*flight.Seller).BySrc)
		dst, dstCovered := m.localRelevant(q.Dst, q.Date, sellers, (*flight.Seller).ByDst)
		for _, s := range sellers {
			if slices.Contains(srcCovered, s) && slices.Contains(dstCovered, s) {
				covered = append(covered, s)
			}
		}
		return src, dst, covered
	}
	date := q.Date.String()
	var bySrc, byDst *soap.RelevantFlightsResponse
	var errSrc, errDst error
	base, ok := m.view.url(machine)
	if !ok {
		return nil, nil, nil
	}
	client := m.clients.get(base)
	callCtx, cancel := context.WithTimeout(ctx, m.cfg.CallTimeout)
	defer cancel()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		bySrc, errSrc = client.RelevantBySrc(callCtx, soap.RelevantBySrcRequest{Src: q.Src, Date: date, Sellers: sellers})
	}()
	go func() {
		defer wg.Done()
		byDst, errDst = client.RelevantByDst(callCtx, soap.RelevantByDstRequest{Dst: q.Dst, Date: date, Sellers: sellers})
	}()
	wg.Wait()
	if (errSrc != nil || errDst != nil) && ctx.Err() != nil {
		return nil, nil, nil // the gather is over (another holder answered first): not a holder error
	}
	if errSrc != nil || errDst != nil {
		m.log.Warn("holder did not answer; asking the next holder", "holder", machine, "sellers", sellers, "err", firstErr(errSrc, errDst))
		m.metrics.holderErrors.Inc()
		return nil, nil, nil
	}
	for _, s := range sellers {
		if slices.Contains(bySrc.Sellers, s) && slices.Contains(byDst.Sellers, s) {
			covered = append(covered, s)
		}
	}
	src, err := keepSellers(bySrc.Flights, covered)
	if err != nil {
		m.log.Warn("holder sent a malformed flight", "holder", machine, "err", err)
		return nil, nil, nil
	}
	dst, err = keepSellers(byDst.Flights, covered)
	if err != nil {
		m.log.Warn("holder sent a malformed flight", "holder", machine, "err", err)
		return nil, nil, nil
	}
	return src, dst, covered
}

func keepSellers(wire []soap.Flight, sellers []string) ([]flight.Flight, error) {
	out := make([]flight.Flight, 0, len(wire))
	for _, w := range wire {
		if !slices.Contains(sellers, w.Seller) {
			continue
		}
		f, err := fromWire(w)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
