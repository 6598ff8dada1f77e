package search

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"flightalliance/search/internal/rest"
	"flightalliance/search/merge"
	"flightalliance/soap"
)

// TestWriteAnswerIsWriteJSON: the search server's answer, written straight from the delegates'
// trips into a pooled buffer, is what writeJSON writes of Merge's answer: the same bytes, headers
// and status.
func TestWriteAnswerIsWriteJSON(t *testing.T) {
	resp := &soap.GetTripsResponse{Alliance: "star", Complete: true}
	for i := range 300 { // in the price order, as a delegate sends them
		price := fmt.Sprintf("%d.%02d", 100+i, i%100)
		resp.Trips = append(resp.Trips, wireTrip(price, leg(fmt.Sprintf("LY%03d", i), "TLV", "JFK", "08:00", "19:10", price)))
	}
	answers := []merge.DelegateAnswer{{Alliance: "star", Resp: resp}, {Alliance: "sky", Err: errors.New("delegate <x> did not answer")}}
	a := merge.Merge(tlvJFK, answers)
	for range 2 { // the second time with a buffer of the pool
		rec := httptest.NewRecorder()
		m := merge.MergeWindow(tlvJFK, answers)
		writeAnswer(rec, &m, nil)
		again := httptest.NewRecorder()
		rest.JSON(again, http.StatusOK, a)
		if !bytes.Equal(rec.Body.Bytes(), again.Body.Bytes()) || !reflect.DeepEqual(rec.Header(), again.Header()) || rec.Code != again.Code {
			t.Fatalf("writeAnswer and writeJSON differ: %d %v vs %d %v", rec.Code, rec.Header(), again.Code, again.Header())
		}
	}
}
