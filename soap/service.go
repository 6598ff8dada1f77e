package soap

// Names and paths of the two services, fixed by API.md.
const (
	SellerServiceName       = "SellerService"
	SellerServicePath       = "/Services/SellerService"
	IntraClusterServiceName = "IntraClusterService"
	IntraClusterServicePath = "/Services/IntraClusterService"
)

// Operation names, fixed by API.md. The request element carries the operation's name and the
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
	// addition to API.md's operations: one exchange rather than two per holder and search).
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

// soapAction is the soapAction the WSDLs advertise for an operation. The handler does not
// depend on it: it dispatches on the body element.
func soapAction(op string) string { return Namespace + "/" + op }
