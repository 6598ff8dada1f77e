package soap

import (
	"context"
	"encoding/xml"
	"fmt"
	"reflect"
	"sync"
	"testing"
)

func TestGetTripsRoundTrip(t *testing.T) {
	s := startServer(t, serverOps{})
	req := GetTripsRequest{Src: "TLV", Dst: "JFK", Date: "2026-12-01", Sellers: []string{"LY", "UA"}}

	resp, err := s.seller().GetTrips(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}

	got := s.last(t, OpGetTrips).(GetTripsRequest)
	if want := (xml.Name{Space: Namespace, Local: OpGetTrips}); got.XMLName != want {
		t.Errorf("server decoded element %v, want %v", got.XMLName, want)
	}
	got.XMLName = xml.Name{}
	if !reflect.DeepEqual(got, req) {
		t.Errorf("server decoded %+v, client sent %+v", got, req)
	}
	if want := (xml.Name{Space: Namespace, Local: "getTripsResponse"}); resp.XMLName != want {
		t.Errorf("client decoded element %v, want %v", resp.XMLName, want)
	}
	if !reflect.DeepEqual(clearNames(resp), sampleTrips()) {
		t.Errorf("client decoded\n%+v\nserver sent\n%+v", resp, sampleTrips())
	}
}

func TestGetTripsWithoutLists(t *testing.T) {
	empty := &GetTripsResponse{Alliance: "star", Complete: true}
	s := startServer(t, serverOps{getTrips: func(context.Context, *GetTripsRequest) (*GetTripsResponse, error) {
		return empty, nil
	}})
	req := GetTripsRequest{Src: "TLV", Dst: "JFK", Date: "2026-12-01"}

	resp, err := s.seller().GetTrips(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.last(t, OpGetTrips).(GetTripsRequest); got.Sellers != nil {
		t.Errorf("server decoded Sellers %q from a request without any", got.Sellers)
	}
	if !reflect.DeepEqual(clearNames(resp), empty) {
		t.Errorf("client decoded %+v, server sent %+v", resp, empty)
	}
}

func TestRelevantFlightsRoundTrip(t *testing.T) {
	s := startServer(t, serverOps{})
	c := s.intra()
	ctx := context.Background()

	bySrc := RelevantBySrcRequest{Src: "TLV", Date: "2026-12-01", Sellers: []string{"LY", "UA", "BA"}}
	resp, err := c.RelevantBySrc(ctx, bySrc)
	if err != nil {
		t.Fatal(err)
	}
	if resp.XMLName.Local != "getRelevantFlightsBySrcResponse" {
		t.Errorf("response element %q, want getRelevantFlightsBySrcResponse", resp.XMLName.Local)
	}
	if !reflect.DeepEqual(clearNames(resp), sampleRelevant()) {
		t.Errorf("BySrc: client decoded %+v, server sent %+v", resp, sampleRelevant())
	}
	gotSrc := s.last(t, OpRelevantBySrc).(RelevantBySrcRequest)
	gotSrc.XMLName = xml.Name{}
	if !reflect.DeepEqual(gotSrc, bySrc) {
		t.Errorf("BySrc: server decoded %+v, client sent %+v", gotSrc, bySrc)
	}

	byDst := RelevantByDstRequest{Dst: "JFK", Date: "2026-12-01", Sellers: []string{"LY"}}
	resp, err = c.RelevantByDst(ctx, byDst)
	if err != nil {
		t.Fatal(err)
	}
	if resp.XMLName.Local != "getRelevantFlightsByDstResponse" {
		t.Errorf("response element %q, want getRelevantFlightsByDstResponse", resp.XMLName.Local)
	}
	if !reflect.DeepEqual(clearNames(resp), sampleRelevant()) {
		t.Errorf("ByDst: client decoded %+v, server sent %+v", resp, sampleRelevant())
	}
	gotDst := s.last(t, OpRelevantByDst).(RelevantByDstRequest)
	gotDst.XMLName = xml.Name{}
	if !reflect.DeepEqual(gotDst, byDst) {
		t.Errorf("ByDst: server decoded %+v, client sent %+v", gotDst, byDst)
	}
}

// TestSendSellerPages fetches a seller page by page in both roles and checks that the pages
// join up to the whole seller and that each role reached its own operation.
func TestSendSellerPages(t *testing.T) {
	all := sampleFlights(5)
	s := startServer(t, serverOps{send: pagedSeller(all, 2)})
	c := s.intra()
	for _, tc := range []struct{ role, op string }{
		{RolePrimary, OpSendPrimarySeller},
		{RoleBackup, OpSendBackupSeller},
	} {
		t.Run(tc.role, func(t *testing.T) {
			var got []Flight
			var cursors []string
			cursor := ""
			for pages := 0; ; pages++ {
				if pages > len(all) {
					t.Fatalf("more pages than flights: cursors %q", cursors)
				}
				page, err := c.SendSeller(context.Background(), tc.role, "LY", cursor)
				if err != nil {
					t.Fatal(err)
				}
				if page.XMLName.Local != tc.op+"Response" || page.Seller != "LY" || page.Version != "v7" {
					t.Fatalf("page %d: element %q seller %q version %q", pages, page.XMLName.Local, page.Seller, page.Version)
				}
				req := s.last(t, tc.op).(SendSellerRequest)
				if req.XMLName.Local != tc.op || req.SellerName != "LY" || req.Cursor != cursor {
					t.Fatalf("server decoded %+v, client sent seller LY cursor %q", req, cursor)
				}
				got = append(got, page.Flights...)
				cursors = append(cursors, page.NextCursor)
				if page.NextCursor == "" {
					break
				}
				cursor = page.NextCursor
			}
			if !reflect.DeepEqual(got, all) {
				t.Errorf("pages joined to %+v, want %+v", got, all)
			}
			if want := []string{"2", "4", ""}; !reflect.DeepEqual(cursors, want) {
				t.Errorf("cursors %q, want %q", cursors, want)
			}
		})
	}
	if _, err := c.SendSeller(context.Background(), "LEADER", "LY", ""); err == nil {
		t.Error("SendSeller with role LEADER succeeded")
	}
}

// TestClientConcurrentCalls shares one client among goroutines, each checking it got the answer
// to its own question.
func TestClientConcurrentCalls(t *testing.T) {
	s := startServer(t, serverOps{getTrips: func(_ context.Context, req *GetTripsRequest) (*GetTripsResponse, error) {
		return &GetTripsResponse{Alliance: req.Src + "-" + req.Dst, Complete: true, MissingSellers: req.Sellers}, nil
	}})
	c := s.seller()
	var wg sync.WaitGroup
	errs := make(chan error, 8*10)
	for g := range 8 {
		wg.Go(func() {
			for i := range 10 {
				src := fmt.Sprintf("S%02d", g)
				dst := fmt.Sprintf("D%02d", i)
				resp, err := c.GetTrips(context.Background(), GetTripsRequest{Src: src, Dst: dst, Date: "2026-12-01", Sellers: []string{src, dst}})
				switch {
				case err != nil:
					errs <- err
				case resp.Alliance != src+"-"+dst || !reflect.DeepEqual(resp.MissingSellers, []string{src, dst}):
					errs <- fmt.Errorf("asked %s-%s, got %+v", src, dst, resp)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := s.count(OpGetTrips); n != 80 {
		t.Errorf("server saw %d calls, want 80", n)
	}
}
