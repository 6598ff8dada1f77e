package soap

import (
	"context"
	"encoding/xml"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
)

// TestRelevantFlightsBothSides: getRelevantFlights carries both sides of a search in one call,
// each list as the server sent it.
func TestRelevantFlightsBothSides(t *testing.T) {
	s := startServer(t, serverOps{})
	req := RelevantFlightsRequest{Src: "TLV", Dst: "JFK", Date: "2026-12-01", Sellers: []string{"LY", "UA"}}
	resp, err := s.intra().RelevantFlights(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	r := sampleRelevant()
	want := &RelevantBothResponse{Sellers: r.Sellers, FromSrc: r.Flights, ToDst: r.Flights[:1]}
	if resp.XMLName.Local != "getRelevantFlightsResponse" || !reflect.DeepEqual(clearNames(resp), want) {
		t.Errorf("client decoded %+v, server sent %+v", resp, want)
	}
	got := s.last(t, OpRelevantFlights).(RelevantFlightsRequest)
	got.XMLName = xml.Name{}
	if !reflect.DeepEqual(got, req) {
		t.Errorf("server decoded %+v, client sent %+v", got, req)
	}
}

// TestUnknownOperationIsNotCalled: a machine whose WSDL does not list an operation (one older
// than it) is not sent the call: the error is ErrUnknownOperation, and nothing reaches it.
func TestUnknownOperationIsNotCalled(t *testing.T) {
	posts := 0
	old := NewHandler(IntraClusterService(), HandlerOptions{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			posts++
		}
		if r.URL.RawQuery == "wsdl" { // a WSDL of the operations before getRelevantFlights
			w.Header().Set("Content-Type", "text/xml")
			def := intraDef
			def.Ops = def.Ops[:len(def.Ops)-1]
			w.Write(def.Document("http://" + r.Host + IntraClusterServicePath))
			return
		}
		old.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	c := NewIntraClient(ts.URL+IntraClusterServicePath, ClientOptions{})
	_, err := c.RelevantFlights(context.Background(), RelevantFlightsRequest{Src: "TLV", Dst: "JFK", Date: "2026-12-01"})
	if !errors.Is(err, ErrUnknownOperation) || posts != 0 {
		t.Fatalf("%v after %d posts, want ErrUnknownOperation and none", err, posts)
	}
}
