package booking

import "testing"

func TestBookingIDParsing(t *testing.T) {
	for id, want := range map[string]string{
		"star.abcdefghijklmnopqrstuvwxyz":        "star",
		"my-alliance.abcdefghijklmnop2345672345": "my-alliance",
		"a.b.abcdefghijklmnopqrstuvwxyz":         "", // alliance names have no '.'
		"star.abcdefghijklmnopqrstuvwxy":         "", // 25 characters
		"star.ABCDEFGHIJKLMNOPQRSTUVWXYZ":        "",
		".abcdefghijklmnopqrstuvwxyz":            "",
		"starabcdefghijklmnopqrstuvwxyz":         "",
		"":                                       "",
	} {
		got, ok := bookingAlliance(id)
		if got != want || ok != (want != "") {
			t.Errorf("bookingAlliance(%q) = %q, %v; want %q", id, got, ok, want)
		}
	}
}
