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

// GetTrips calls getTrips.
func (c *SellerClient) GetTrips(ctx context.Context, req GetTripsRequest) (*GetTripsResponse, error) {
	var resp GetTripsResponse
	if err := c.c.call(ctx, OpGetTrips, &req, &resp); err != nil {
		return nil, err
	}
	return &resp, nil
}
