package search

import (
	"context"
	"errors"
	"testing"

	"flightalliance/hedge"
	"flightalliance/soap"
)

// The decision askAlliance makes from what its targets answered, without HTTP: the replies are
// given to allianceReplies in the order a gather would see them.

func seeReply(r *allianceReplies, resp *soap.GetTripsResponse, err error) {
	a := hedge.Answer[delegateReply]{Keys: []string{"star"}, Value: delegateReply{resp, err}}
	if err == nil && resp.Complete {
		a.Covered, a.Won = a.Keys, a.Keys
	}
	r.see(a)
}

func TestAllianceRepliesCompleteAnswerWins(t *testing.T) {
	var r allianceReplies
	complete := &soap.GetTripsResponse{Complete: true}
	seeReply(&r, nil, errors.New("delegate d: fault"))
	seeReply(&r, &soap.GetTripsResponse{MissingSellers: []string{"UA"}}, nil)
	seeReply(&r, complete, nil)
	if resp, err := r.answer(nil); resp != complete || err != nil {
		t.Errorf("answer %+v, %v; want the complete one", resp, err)
	}
}

func TestAllianceRepliesGiveTheAnswerMissingFewestSellers(t *testing.T) {
	var r allianceReplies
	worse := &soap.GetTripsResponse{MissingSellers: []string{"LY", "UA"}}
	better := &soap.GetTripsResponse{MissingSellers: []string{"UA"}}
	tie := &soap.GetTripsResponse{MissingSellers: []string{"LY"}}
	seeReply(&r, worse, nil)
	seeReply(&r, better, nil)
	seeReply(&r, nil, errors.New("delegate a2: fault"))
	seeReply(&r, tie, nil)
	// Even when the client went away: an answer in hand is given.
	if resp, err := r.answer(context.Canceled); resp != better || err != nil {
		t.Errorf("answer %+v, %v; want the earliest missing one seller", resp, err)
	}
}

func TestAllianceRepliesWithoutAnAnswerNameEveryError(t *testing.T) {
	var r allianceReplies
	seeReply(&r, nil, errors.New("delegate http://d/S: fault"))
	seeReply(&r, nil, errors.New("delegate http://a1/S did not answer within 3s"))
	_, err := r.answer(nil)
	if err == nil || err.Error() != "delegate http://d/S: fault; delegate http://a1/S did not answer within 3s" {
		t.Errorf("error %v; want both, in the order they came", err)
	}
	if _, err := r.answer(context.Canceled); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v when the client went away; want context.Canceled", err)
	}
}

// A reply shows the hedge policy that its delegate is alive only when the delegate answered:
// trips (complete or not) or a SOAP fault, never a timeout, a transport error or another
// alliance's answer (askAlliance turns that into a plain error).
func TestDelegateReplyHeardOnlyFromAnAnswer(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply delegateReply
		heard bool
	}{
		{"complete", delegateReply{resp: &soap.GetTripsResponse{Complete: true}}, true},
		{"incomplete", delegateReply{resp: &soap.GetTripsResponse{MissingSellers: []string{"UA"}}}, true},
		{"a fault", delegateReply{err: &soap.Fault{Code: "soap:Server", String: "not ready"}}, true},
		{"a timeout", delegateReply{err: context.DeadlineExceeded}, false},
		{"a refused connection", delegateReply{err: errors.New("dial tcp 127.0.0.1:1: connect: connection refused")}, false},
	} {
		if got := tc.reply.heard(); got != tc.heard {
			t.Errorf("%s: heard %v, want %v", tc.name, got, tc.heard)
		}
	}
}
