package alliance

import (
	"context"
	"slices"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/wire"
	"flightalliance/soap"
)

const (
	intraPath  = "/Services/IntraClusterService"
	sellerPath = "/Services/SellerService"
)

// intraService is the IntraClusterService: what the other machines of the alliance ask this one.
func (m *Machine) intraService() soap.Service {
	return soap.IntraClusterService(
		soap.Op("sendPrimarySeller", func(ctx context.Context, req *soap.SendSellerRequest) (*soap.SellerPage, error) {
			return m.sendSeller(req)
		}),
		soap.Op("sendBackupSeller", func(ctx context.Context, req *soap.SendSellerRequest) (*soap.SellerPage, error) {
			return m.sendSeller(req)
		}),
		soap.Op("getRelevantFlightsBySrc", func(ctx context.Context, req *soap.RelevantBySrcRequest) (*soap.RelevantFlightsResponse, error) {
			return m.relevant(req.Src, "Src", req.Date, req.Sellers, req.Versions, (*flight.Seller).BySrc)
		}),
		soap.Op("getRelevantFlightsByDst", func(ctx context.Context, req *soap.RelevantByDstRequest) (*soap.RelevantFlightsResponse, error) {
			return m.relevant(req.Dst, "Dst", req.Date, req.Sellers, req.Versions, (*flight.Seller).ByDst)
		}),
		soap.Op("getFlights", func(ctx context.Context, req *soap.GetFlightsRequest) (*soap.RelevantFlightsResponse, error) {
			return m.flightsByNumber(req)
		}),
		soap.Op("getRelevantFlights", func(ctx context.Context, req *soap.RelevantFlightsRequest) (*soap.RelevantBothResponse, error) {
			return m.relevantBoth(req)
		}),
	)
}

// flightsByNumber answers getFlights from this machine's copy of the seller, if it has one.
func (m *Machine) flightsByNumber(req *soap.GetFlightsRequest) (*soap.RelevantFlightsResponse, error) {
	if !flight.ValidSeller(req.Seller) {
		return nil, soap.ClientFault("Seller: %q is not a seller code", req.Seller)
	}
	if len(req.Flights) == 0 || len(req.Flights) > maxFlightsAsked {
		return nil, soap.ClientFault("Flights: %d numbers, ask for 1 to %d", len(req.Flights), maxFlightsAsked)
	}
	resp := &soap.RelevantFlightsResponse{}
	sel, ok := m.copies.seller(req.Seller)
	if !ok {
		return resp, nil
	}
	resp.Sellers = []string{req.Seller}
	for _, n := range req.Flights {
		if f, ok := sel.Flight(n); ok {
			resp.Flights = append(resp.Flights, wire.Flight(f))
		}
	}
	return resp, nil
}

// maxFlightsAsked bounds one getFlights request (a booking names at most two flights).
const maxFlightsAsked = 16

// sendSeller answers one page of a seller this machine has a copy of, whatever its role: the
// planner names as a source any machine that held or brought the seller in the round's snapshot.
func (m *Machine) sendSeller(req *soap.SendSellerRequest) (*soap.SellerPage, error) {
	if !flight.ValidSeller(req.SellerName) {
		return nil, soap.ClientFault("sellerName: %q is not a seller code", req.SellerName)
	}
	sel, ok := m.copies.seller(req.SellerName)
	if !ok {
		return nil, soap.ClientFault("sellerName: this machine has no copy of seller %q", req.SellerName)
	}
	flights, next, err := sel.Page(req.Cursor, m.cfg.PageSize)
	if err != nil {
		return nil, soap.ClientFault("Cursor: %v", err)
	}
	page := &soap.SellerPage{Seller: sel.Code(), Version: sel.Version(), NextCursor: next}
	page.Flights = make([]soap.Flight, 0, len(flights))
	for _, f := range flights {
		page.Flights = append(page.Flights, wire.Flight(f))
	}
	m.metrics.pagesSent.Inc()
	return page, nil
}

// relevant answers getRelevantFlightsBySrc/ByDst: the flights of the asked sellers this machine
// has (at the versions asked, when named), and which of them it has, so the caller can tell "no
// flight" from "not here".
func (m *Machine) relevant(airport, field, date string, sellers []string, versions []soap.SellerVersion,
	index func(*flight.Seller, string, flight.Date) []flight.Flight) (*soap.RelevantFlightsResponse, error) {
	d, err := relevantArgs(date, sellers, field, airport)
	if err != nil {
		return nil, err
	}
	want, err := expectedVersions(versions)
	if err != nil {
		return nil, err
	}
	served := atVersions(m.copies.served(sellers), want)
	flights, covered := relevantOf(served, airport, d, index), codesOf(served)
	resp := &soap.RelevantFlightsResponse{Sellers: covered, Flights: make([]soap.Flight, 0, len(flights))}
	for _, f := range flights {
		resp.Flights = append(resp.Flights, wire.Flight(f))
	}
	return resp, nil
}

// relevantBoth answers getRelevantFlights: both sides from the same sellers, read once.
func (m *Machine) relevantBoth(req *soap.RelevantFlightsRequest) (*soap.RelevantBothResponse, error) {
	d, err := relevantArgs(req.Date, req.Sellers, "Src", req.Src, "Dst", req.Dst)
	if err != nil {
		return nil, err
	}
	want, err := expectedVersions(req.Versions)
	if err != nil {
		return nil, err
	}
	resp := &soap.RelevantBothResponse{Sellers: []string{}}
	for _, sel := range atVersions(m.copies.served(req.Sellers), want) {
		resp.Sellers = append(resp.Sellers, sel.Code())
		for _, f := range sel.BySrc(req.Src, d) {
			resp.FromSrc = append(resp.FromSrc, wire.Flight(f))
		}
		for _, f := range sel.ByDst(req.Dst, d) {
			resp.ToDst = append(resp.ToDst, wire.Flight(f))
		}
	}
	return resp, nil
}

// relevantArgs checks the arguments of the getRelevantFlights operations — the date, the sellers,
// and airports given as field name and value pairs — and returns the date. A bad one is a Client
// fault naming its field.
func relevantArgs(date string, sellers []string, airports ...string) (flight.Date, error) {
	for i := 0; i+1 < len(airports); i += 2 {
		if !flight.ValidIATA(airports[i+1]) {
			return flight.Date{}, soap.ClientFault("%s: %q is not an IATA airport code", airports[i], airports[i+1])
		}
	}
	d, err := flight.ParseDate(date)
	if err != nil {
		return flight.Date{}, soap.ClientFault("Date: %q is not a date (YYYY-MM-DD)", date)
	}
	for _, s := range sellers {
		if !flight.ValidSeller(s) {
			return flight.Date{}, soap.ClientFault("Sellers: %q is not a seller code", s)
		}
	}
	return d, nil
}

// expectedVersions checks a request's Versions (each a seller code with a version, no seller
// twice) and returns them by seller; nil when none are named. A bad one is a Client fault naming
// its field.
func expectedVersions(versions []soap.SellerVersion) (map[string]string, error) {
	if len(versions) == 0 {
		return nil, nil
	}
	want := make(map[string]string, len(versions))
	for i, v := range versions {
		switch _, twice := want[v.Seller]; {
		case !flight.ValidSeller(v.Seller):
			return nil, soap.ClientFault("Versions[%d].Seller: %q is not a seller code", i, v.Seller)
		case v.Version == "":
			return nil, soap.ClientFault("Versions[%d].Version: empty for seller %s", i, v.Seller)
		case twice:
			return nil, soap.ClientFault("Versions[%d].Seller: seller %s is named twice", i, v.Seller)
		}
		want[v.Seller] = v.Version
	}
	return want, nil
}

// versionsBySeller is versions by seller code (nil for none); a seller named twice keeps its
// last version.
func versionsBySeller(versions []soap.SellerVersion) map[string]string {
	if versions == nil {
		return nil
	}
	out := make(map[string]string, len(versions))
	for _, v := range versions {
		out[v.Seller] = v.Version
	}
	return out
}

// atVersions keeps the copies of served whose version is the one want names for their seller (or
// that want does not name).
func atVersions(served []*flight.Seller, want map[string]string) []*flight.Seller {
	if want == nil {
		return served
	}
	return slices.DeleteFunc(served, func(sel *flight.Seller) bool {
		ver, named := want[sel.Code()]
		return named && ver != sel.Version()
	})
}

// codesOf is the sellers' codes, in order.
func codesOf(sellers []*flight.Seller) []string {
	codes := make([]string, 0, len(sellers))
	for _, sel := range sellers {
		codes = append(codes, sel.Code())
	}
	return codes
}

// relevantOf is the flights of the sellers' copies at airport on d, as index finds them.
func relevantOf(served []*flight.Seller, airport string, d flight.Date,
	index func(*flight.Seller, string, flight.Date) []flight.Flight) (flights []flight.Flight) {
	for _, sel := range served {
		if list := index(sel, airport, d); flights == nil {
			flights = list // the caller's (see flight.Seller.BySrc): one seller's is not copied again
		} else {
			flights = append(flights, list...)
		}
	}
	return flights
}
