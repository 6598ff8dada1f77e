package soap

import "encoding/xml"

// Namespace is the target namespace of both WSDLs and of their schemas. gosoap takes the body
// element's namespace from the first schema's targetNamespace, so the two must be equal.
const Namespace = "urn:flightalliance:v1"

// The wire follows document/literal wrapped conventions: the request element is named after its
// operation, the response element is the operation's name plus "Response", and every child
// element is qualified by Namespace (elementFormDefault="qualified"). A repeated element is one
// list item per occurrence (<Sellers>LY</Sellers><Sellers>UA</Sellers>).
//
// Types shared by two operations (SendSellerRequest, SellerPage, RelevantFlightsResponse) carry
// an untagged XMLName: the element name depends on the operation, the handler and the client set
// and check it, and after decoding XMLName holds the name that was on the wire.
//
// Keep the schemas in wsdl_schema.go in step with these types: wsdl_test.go compares them. The
// hot responses (GetTripsResponse, RelevantFlightsResponse, SellerPage) also have a fast codec:
// TestCodecKnowsEveryField fails until codec_encode.go and codec_decode_types.go know a new field.

// Flight is one flight on the wire. Times are RFC 3339 UTC instants, Price a decimal string with
// two fraction digits ("512.00"): the wire carries strings because gosoap sends nothing else.
type Flight struct {
	Flight    string `xml:"Flight"`
	Seller    string `xml:"Seller"`
	Src       string `xml:"Src"`
	Dst       string `xml:"Dst"`
	Departure string `xml:"Departure"`
	Arrival   string `xml:"Arrival"`
	Price     string `xml:"Price"`
	Seats     int    `xml:"Seats"`
}

// Leg is a flight of a trip, tagged with the alliance that sells it.
type Leg struct {
	Flight    string `xml:"Flight"`
	Seller    string `xml:"Seller"`
	Alliance  string `xml:"Alliance"`
	Src       string `xml:"Src"`
	Dst       string `xml:"Dst"`
	Departure string `xml:"Departure"`
	Arrival   string `xml:"Arrival"`
	Price     string `xml:"Price"`
	Seats     int    `xml:"Seats"`
}

// Trip is a direct flight (one leg) or a connection (two legs); Price is the sum of the legs.
type Trip struct {
	Price string `xml:"Price"`
	Legs  []Leg  `xml:"Legs,omitempty"`
	// LegIndexes, in an answer to a request with ShareLegs, names the trip's legs by position in
	// the answer's SharedLegs (from 0), in place of Legs. (Not omitempty: encoding/xml would
	// leave out every 0; an empty list is written as nothing all the same.)
	LegIndexes []int `xml:"LegIndexes"`
}

// GetTripsRequest is SellerService.getTrips. Date is an ISO date (2026-12-01). Sellers, when
// given, restricts every leg to those sellers. The optional controls: MaxTrips (1 or more) sends
// only the first MaxTrips trips of the list; Nonstop keeps direct trips only; MaxPrice (a decimal
// such as "512.00") keeps trips that cost at most that; Sort orders the list by "price" (the
// default), "duration", "departure" or "arrival", each then by the price order.
type GetTripsRequest struct {
	XMLName  xml.Name `xml:"getTrips"`
	Src      string   `xml:"Src"`
	Dst      string   `xml:"Dst"`
	Date     string   `xml:"Date"`
	Sellers  []string `xml:"Sellers,omitempty"`
	MaxTrips int      `xml:"MaxTrips,omitempty"`
	Nonstop  bool     `xml:"Nonstop,omitempty"`
	MaxPrice string   `xml:"MaxPrice,omitempty"`
	Sort     string   `xml:"Sort,omitempty"`
	// IfNoneMatch is the ETag of an answer to this same request that the caller keeps: when the
	// answer would be the same, it comes back NotModified, without trips (HTTP's conditional
	// request, for a caller such as the search server that asks the same query again and again).
	IfNoneMatch string `xml:"IfNoneMatch,omitempty"`
	// ShareLegs asks for the answer's legs listed once each, in SharedLegs, and named by position
	// in each trip's LegIndexes (see sharedlegs.go): a caller that decodes whole lists reads a
	// fifth of the bytes. A machine that does not know it answers with legs inline.
	ShareLegs bool `xml:"ShareLegs,omitempty"`
}

// GetTripsResponse answers getTrips. Complete is false when some seller of the alliance could
// not be asked; MissingSellers names them. Total counts the trips of the whole list (after
// Nonstop and MaxPrice, before MaxTrips cut it).
type GetTripsResponse struct {
	XMLName  xml.Name `xml:"getTripsResponse"`
	Alliance string   `xml:"Alliance"`
	// SharedLegs, when the request asked ShareLegs, are the distinct legs of the trips, which name
	// them by position (Trip.LegIndexes).
	SharedLegs     []Leg    `xml:"SharedLegs,omitempty"`
	Trips          []Trip   `xml:"Trips,omitempty"`
	Complete       bool     `xml:"Complete"`
	MissingSellers []string `xml:"MissingSellers,omitempty"`
	Total          int      `xml:"Total"`
	// ETag names this answer to this request, when the alliance can tell it again: the same ETag
	// means the same trips, seats left included. Only complete answers have one.
	ETag string `xml:"ETag,omitempty"`
	// NotModified says the answer is the one named by the request's IfNoneMatch, and carries no
	// trips: the caller's copy is current (ETag and Complete are given).
	NotModified bool `xml:"NotModified,omitempty"`
}

// RelevantBySrcRequest is IntraClusterService.getRelevantFlightsBySrc: flights departing on Date
// from Src, of the sellers this machine serves (restricted to Sellers when given).
type RelevantBySrcRequest struct {
	XMLName  xml.Name        `xml:"getRelevantFlightsBySrc"`
	Src      string          `xml:"Src"`
	Date     string          `xml:"Date"`
	Sellers  []string        `xml:"Sellers,omitempty"`
	Versions []SellerVersion `xml:"Versions,omitempty"`
}

// RelevantByDstRequest is IntraClusterService.getRelevantFlightsByDst: flights departing on
// Date that arrive at Dst.
type RelevantByDstRequest struct {
	XMLName  xml.Name        `xml:"getRelevantFlightsByDst"`
	Dst      string          `xml:"Dst"`
	Date     string          `xml:"Date"`
	Sellers  []string        `xml:"Sellers,omitempty"`
	Versions []SellerVersion `xml:"Versions,omitempty"`
}

// RelevantFlightsRequest is IntraClusterService.getRelevantFlights: both sides of a search in one
// call — the flights departing on Date from Src, and those departing on Date that arrive at Dst —
// of the sellers this machine serves (restricted to Sellers when given).
type RelevantFlightsRequest struct {
	XMLName  xml.Name        `xml:"getRelevantFlights"`
	Src      string          `xml:"Src"`
	Dst      string          `xml:"Dst"`
	Date     string          `xml:"Date"`
	Sellers  []string        `xml:"Sellers,omitempty"`
	Versions []SellerVersion `xml:"Versions,omitempty"`
}

// SellerVersion names the version of a seller's data a caller of the getRelevantFlights
// operations expects (Versions): a machine whose copy of Seller is of another version answers
// nothing for it, as if it held no copy. A delegate names them when it asks a machine that is no
// longer in its view (its session ended: it may still serve the copies it had, and may have
// replaced one since); a seller Versions does not name is answered from whatever copy there is.
type SellerVersion struct {
	Seller  string `xml:"Seller"`
	Version string `xml:"Version"`
}

// RelevantBothResponse answers getRelevantFlights: Sellers as in RelevantFlightsResponse (the
// sellers asked for that this machine holds, for both lists), FromSrc and ToDst the two lists.
type RelevantBothResponse struct {
	XMLName xml.Name `xml:"getRelevantFlightsResponse"`
	Sellers []string `xml:"Sellers,omitempty"`
	FromSrc []Flight `xml:"FromSrc,omitempty"`
	ToDst   []Flight `xml:"ToDst,omitempty"`
}

// RelevantFlightsResponse answers both getRelevantFlights operations (as
// getRelevantFlightsBySrcResponse or getRelevantFlightsByDstResponse). Sellers lists the sellers
// the answer covers (the ones asked for that this machine holds), so that a caller can tell a
// seller with no matching flight from a seller the machine does not hold.
type RelevantFlightsResponse struct {
	XMLName xml.Name
	Sellers []string `xml:"Sellers,omitempty"`
	Flights []Flight `xml:"Flights,omitempty"`
}

// SendSellerRequest is sendPrimarySeller / sendBackupSeller: one page of a seller's data.
// Cursor is empty for the first page and the previous page's NextCursor afterwards.
type SendSellerRequest struct {
	XMLName    xml.Name
	SellerName string `xml:"sellerName"`
	Cursor     string `xml:"Cursor,omitempty"`
}

// SellerPage is one page of a seller's data (as sendPrimarySellerResponse or
// sendBackupSellerResponse). Version identifies the seller's data as a whole and is the same on
// every page; NextCursor is empty on the last page.
type SellerPage struct {
	XMLName    xml.Name
	Seller     string   `xml:"Seller"`
	Version    string   `xml:"Version"`
	Flights    []Flight `xml:"Flights,omitempty"`
	NextCursor string   `xml:"NextCursor,omitempty"`
}

// GetFlightsRequest is IntraClusterService.getFlights: the flights of one seller by number (the
// flights a booking names), from a machine that has the seller. The answer's Sellers is
// [Seller] when the machine has the seller, empty otherwise; a number it lacks is left out.
type GetFlightsRequest struct {
	XMLName xml.Name `xml:"getFlights"`
	Seller  string   `xml:"Seller"`
	Flights []string `xml:"Flights"`
}
