package soap

import (
	"context"
	"fmt"
)

// Seller roles, as SendSeller takes them.
const (
	RolePrimary = "PRIMARY"
	RoleBackup  = "BACKUP"
)

// IntraClient calls the IntraClusterService of one machine of the alliance. Make one per remote
// machine and share it: it is safe for concurrent use and keeps the remote's WSDL and connections.
type IntraClient struct{ c *caller }

// NewIntraClient makes a client of the IntraClusterService at serviceURL, such as
// http://127.0.0.1:8101/Services/IntraClusterService. Nothing is fetched until the first call;
// a bad URL is reported by every call.
func NewIntraClient(serviceURL string, opts ClientOptions) *IntraClient {
	return &IntraClient{c: newCaller(serviceURL, opts)}
}

// RelevantBySrc calls getRelevantFlightsBySrc.
func (c *IntraClient) RelevantBySrc(ctx context.Context, req RelevantBySrcRequest) (*RelevantFlightsResponse, error) {
	var resp RelevantFlightsResponse
	if err := c.c.callHot(ctx, OpRelevantBySrc, &req, &resp); err != nil {
		return nil, err
	}
	return &resp, nil
}

// RelevantByDst calls getRelevantFlightsByDst.
func (c *IntraClient) RelevantByDst(ctx context.Context, req RelevantByDstRequest) (*RelevantFlightsResponse, error) {
	var resp RelevantFlightsResponse
	if err := c.c.callHot(ctx, OpRelevantByDst, &req, &resp); err != nil {
		return nil, err
	}
	return &resp, nil
}

// RelevantFlights calls getRelevantFlights: both sides of a search in one call. A machine whose
// WSDL does not list it (one that predates it) gets no call: the error is ErrUnknownOperation,
// and RelevantBySrc with RelevantByDst ask the same.
func (c *IntraClient) RelevantFlights(ctx context.Context, req RelevantFlightsRequest) (*RelevantBothResponse, error) {
	var resp RelevantBothResponse
	if err := c.c.callHot(ctx, OpRelevantFlights, &req, &resp); err != nil {
		return nil, err
	}
	return &resp, nil
}

// SendSeller fetches one page of a seller's data from the machine holding it in role
// (RolePrimary calls sendPrimarySeller, RoleBackup sendBackupSeller). Pass "" as cursor for the
// first page and the previous page's NextCursor afterwards.
func (c *IntraClient) SendSeller(ctx context.Context, role, seller, cursor string) (*SellerPage, error) {
	var op string
	switch role {
	case RolePrimary:
		op = OpSendPrimarySeller
	case RoleBackup:
		op = OpSendBackupSeller
	default:
		return nil, fmt.Errorf("soap: SendSeller role %q: want %s or %s", role, RolePrimary, RoleBackup)
	}
	var page SellerPage
	if err := c.c.callHot(ctx, op, &SendSellerRequest{SellerName: seller, Cursor: cursor}, &page); err != nil {
		return nil, err
	}
	return &page, nil
}

// GetFlights calls getFlights.
func (c *IntraClient) GetFlights(ctx context.Context, seller string, numbers []string) (*RelevantFlightsResponse, error) {
	resp := RelevantFlightsResponse{}
	if err := c.c.callHot(ctx, OpGetFlights, &GetFlightsRequest{Seller: seller, Flights: numbers}, &resp); err != nil {
		return nil, err
	}
	return &resp, nil
}
