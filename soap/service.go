package soap

import "flightalliance/soap/wsdl"

// Names and paths of the two services, fixed by docs/api.md.
const (
	SellerServiceName       = "SellerService"
	SellerServicePath       = "/Services/SellerService"
	IntraClusterServiceName = "IntraClusterService"
	IntraClusterServicePath = "/Services/IntraClusterService"
)

// Operation names, fixed by docs/api.md. The request element carries the operation's name and the
// response element the name plus "Response".
const (
	OpGetTrips          = "getTrips"
	OpReserve           = "reserve"
	OpCancel            = "cancel"
	OpConfirm           = "confirm"
	OpGetBooking        = "getBooking"
	OpGetSeats          = "getSeats"
	OpSendPrimarySeller = "sendPrimarySeller"
	OpSendBackupSeller  = "sendBackupSeller"
	OpRelevantBySrc     = "getRelevantFlightsBySrc"
	OpRelevantByDst     = "getRelevantFlightsByDst"
	OpGetFlights        = "getFlights"
	// OpRelevantFlights is getRelevantFlightsBySrc and getRelevantFlightsByDst in one call (an
	// addition to docs/api.md's operations: one exchange rather than two per holder and search).
	OpRelevantFlights = "getRelevantFlights"
)

// Service is a SOAP endpoint: its name, the path it is served on, the operations it implements
// and its WSDL. WSDL receives the full endpoint URL that goes into soap:address.
type Service struct {
	Name string
	Path string
	Ops  []Operation
	WSDL func(address string) []byte
}

// SellerService is the service the search server calls on an alliance's delegate: getTrips,
// and the bookings: reserve, cancel, confirm, getBooking and getSeats.
func SellerService(ops ...Operation) Service {
	return Service{Name: SellerServiceName, Path: SellerServicePath, Ops: ops, WSDL: sellerWSDL}
}

// IntraClusterService is the service machines of one alliance call on each other:
// sendPrimarySeller, sendBackupSeller, getRelevantFlightsBySrc and getRelevantFlightsByDst (and
// both at once, getRelevantFlights), getFlights.
func IntraClusterService(ops ...Operation) Service {
	return Service{Name: IntraClusterServiceName, Path: IntraClusterServicePath, Ops: ops, WSDL: intraWSDL}
}

// The WSDL documents of the two services: their operations, and their schemas
// (wsdl_schema.go), in Namespace. The soapAction they advertise for an operation is
// Namespace+"/"+op; the handler does not depend on it: it dispatches on the body element.
var (
	sellerDef = wsdl.Def{Service: SellerServiceName, Namespace: Namespace, Schema: sellerSchema, Ops: []string{
		OpGetTrips, OpReserve, OpCancel, OpConfirm, OpGetBooking, OpGetSeats,
	}}
	intraDef = wsdl.Def{Service: IntraClusterServiceName, Namespace: Namespace, Schema: intraSchema, Ops: []string{
		OpSendPrimarySeller, OpSendBackupSeller, OpRelevantBySrc, OpRelevantByDst, OpGetFlights, OpRelevantFlights,
	}}
)

func sellerWSDL(address string) []byte { return sellerDef.Document(address) }
func intraWSDL(address string) []byte  { return intraDef.Document(address) }
