package gather

import (
	"context"
	"errors"
	"slices"
	"sync"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/trip"
	"flightalliance/alliance/wire"
	"flightalliance/soap"
)

// AskHolder asks one remote holder, over its IntraClusterService, for the sides of q the search
// lacks — the flights of sellers out of q.Src (FromSrc) and into q.Dst (ToDst) on q.Date: both in
// one call (getRelevantFlights, or two at once to a holder that predates it), one side in one
// (getRelevantFlightsBySrc or ByDst). versions, when given, are the versions of the sellers the
// holder must have to answer for them (soap.SellerVersion). covered is the sellers it answered for
// on every side asked; their flights are the only ones returned. An error means the holder did
// not answer (or sent a malformed flight): nothing is covered.
func AskHolder(ctx context.Context, client *soap.IntraClient, q trip.Query, sides Sides, sellers []string, versions []soap.SellerVersion) (src, dst []flight.Flight, covered []string, err error) {
	date := q.Date.String()
	switch sides {
	case FromSrc:
		resp, err := client.RelevantBySrc(ctx, soap.RelevantBySrcRequest{Src: q.Src, Date: date, Sellers: sellers, Versions: versions})
		if err != nil {
			return nil, nil, nil, err
		}
		return bothSides(sellers, resp.Sellers, resp.Sellers, resp.Flights, nil)
	case ToDst:
		resp, err := client.RelevantByDst(ctx, soap.RelevantByDstRequest{Dst: q.Dst, Date: date, Sellers: sellers, Versions: versions})
		if err != nil {
			return nil, nil, nil, err
		}
		return bothSides(sellers, resp.Sellers, resp.Sellers, nil, resp.Flights)
	}
	both, err := client.RelevantFlights(ctx, soap.RelevantFlightsRequest{Src: q.Src, Dst: q.Dst, Date: date, Sellers: sellers, Versions: versions})
	switch {
	case errors.Is(err, soap.ErrUnknownOperation):
		return askBySides(ctx, client, q, sellers, versions)
	case err != nil:
		return nil, nil, nil, err
	}
	return bothSides(sellers, both.Sellers, both.Sellers, both.FromSrc, both.ToDst)
}

// askBySides is AskHolder of a holder without getRelevantFlights: getRelevantFlightsBySrc and
// getRelevantFlightsByDst at once.
func askBySides(ctx context.Context, client *soap.IntraClient, q trip.Query, sellers []string, versions []soap.SellerVersion) (src, dst []flight.Flight, covered []string, err error) {
	date := q.Date.String()
	var bySrc, byDst *soap.RelevantFlightsResponse
	var errSrc, errDst error
	var wg sync.WaitGroup
	wg.Go(func() {
		bySrc, errSrc = client.RelevantBySrc(ctx, soap.RelevantBySrcRequest{Src: q.Src, Date: date, Sellers: sellers, Versions: versions})
	})
	wg.Go(func() {
		byDst, errDst = client.RelevantByDst(ctx, soap.RelevantByDstRequest{Dst: q.Dst, Date: date, Sellers: sellers, Versions: versions})
	})
	wg.Wait()
	if err := errors.Join(errSrc, errDst); err != nil {
		return nil, nil, nil, err
	}
	return bothSides(sellers, bySrc.Sellers, byDst.Sellers, bySrc.Flights, byDst.Flights)
}

// bothSides is what a holder's answer covers of the sellers asked: those it answered for on both
// sides (srcSellers, dstSellers), and their flights of each side, parsed.
func bothSides(sellers, srcSellers, dstSellers []string, fromSrc, toDst []soap.Flight) (src, dst []flight.Flight, covered []string, err error) {
	for _, s := range sellers {
		if slices.Contains(srcSellers, s) && slices.Contains(dstSellers, s) {
			covered = append(covered, s)
		}
	}
	if src, err = keepSellers(fromSrc, covered); err != nil {
		return nil, nil, nil, err
	}
	if dst, err = keepSellers(toDst, covered); err != nil {
		return nil, nil, nil, err
	}
	return src, dst, covered, nil
}

// keepSellers parses the flights of sellers among flights.
func keepSellers(flights []soap.Flight, sellers []string) ([]flight.Flight, error) {
	out := make([]flight.Flight, 0, len(flights))
	for _, w := range flights {
		if !slices.Contains(sellers, w.Seller) {
			continue
		}
		f, err := wire.Parse(w)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}
