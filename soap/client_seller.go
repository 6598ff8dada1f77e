package soap

import "context"

// SellerClient calls one alliance's SellerService. Make one per remote machine and share it:
// it is safe for concurrent use and keeps the remote's WSDL and connections.
type SellerClient struct{ c *caller }

// NewSellerClient makes a client of the SellerService at serviceURL, such as
// http://127.0.0.1:8101/Services/SellerService. Nothing is fetched until the first call; a bad
// URL is reported by every call.
func NewSellerClient(serviceURL string, opts ClientOptions) *SellerClient {
	return &SellerClient{c: newCaller(serviceURL, opts)}
}

// GetTrips calls getTrips. An answer to a request with ShareLegs comes back as sent, its legs
// shared when the machine knows ShareLegs (InlineLegs turns it into the other form, and checks
// its indexes).
func (c *SellerClient) GetTrips(ctx context.Context, req GetTripsRequest) (*GetTripsResponse, error) {
	var resp GetTripsResponse
	if err := c.c.callHot(ctx, OpGetTrips, &req, &resp); err != nil {
		return nil, err
	}
	return &resp, nil
}

// Reserve calls reserve.
func (c *SellerClient) Reserve(ctx context.Context, req ReserveRequest) (*ReserveResponse, error) {
	var resp ReserveResponse
	if err := c.c.call(ctx, OpReserve, &req, &resp); err != nil {
		return nil, err
	}
	return &resp, nil
}

// Cancel calls cancel.
func (c *SellerClient) Cancel(ctx context.Context, bookingID, requestID string) (*Booking, error) {
	return c.booking(ctx, OpCancel, bookingID, requestID)
}

// Confirm calls confirm.
func (c *SellerClient) Confirm(ctx context.Context, bookingID, requestID string) (*Booking, error) {
	return c.booking(ctx, OpConfirm, bookingID, requestID)
}

// GetBooking calls getBooking.
func (c *SellerClient) GetBooking(ctx context.Context, bookingID string) (*Booking, error) {
	return c.booking(ctx, OpGetBooking, bookingID, "")
}

func (c *SellerClient) booking(ctx context.Context, op, bookingID, requestID string) (*Booking, error) {
	var resp BookingResponse
	if err := c.c.call(ctx, op, &BookingRequest{BookingID: bookingID, RequestID: requestID}, &resp); err != nil {
		return nil, err
	}
	return &resp.Booking, nil
}

// GetSeats calls getSeats for alliance's flight ("" asks the machine's own alliance).
func (c *SellerClient) GetSeats(ctx context.Context, alliance, seller, flight string) (*GetSeatsResponse, error) {
	var resp GetSeatsResponse
	if err := c.c.call(ctx, OpGetSeats, &GetSeatsRequest{Alliance: alliance, Seller: seller, Flight: flight}, &resp); err != nil {
		return nil, err
	}
	return &resp, nil
}
