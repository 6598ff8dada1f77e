package booking

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"flightalliance/alliance/flight"
)

func at(h, m int) time.Time { return time.Date(2026, 12, 1, h, m, 0, 0, time.UTC) }

func fl(number, src, dst string, dep, arr time.Time, seats int) flight.Flight {
	return flight.Flight{Number: number, Seller: number[:2], Src: src, Dst: dst, Departure: dep, Arrival: arr, Price: 10000, Seats: seats}
}

func goodRequest() Request {
	return Request{Alliance: "star", Legs: []LegRef{{"LY", "LY001"}, {"UA", "UA123"}}, Seats: 2, Key: "k-1"}
}

func TestValidateNamesTheField(t *testing.T) {
	for field, mutate := range map[string]func(*Request){
		"RequestID":      func(r *Request) { r.Key = "" },
		"alliance":       func(r *Request) { r.Alliance = "" },
		"legs":           func(r *Request) { r.Legs = nil },
		"seats":          func(r *Request) { r.Seats = 0 },
		"hold":           func(r *Request) { r.Hold = time.Millisecond },
		"legs[1].seller": func(r *Request) { r.Legs[1].Seller = "u" },
		"legs[0].flight": func(r *Request) { r.Legs[0].Flight = "ly 1" },
	} {
		r := goodRequest()
		mutate(&r)
		var fe *FieldError
		if err := r.Validate(); !errors.As(err, &fe) || fe.Field != field {
			t.Errorf("%s: Validate() = %v, want a FieldError on %s", field, err, field)
		}
	}
	for _, mutate := range []func(*Request){
		func(r *Request) { r.Key = strings.Repeat("k", MaxKeyLen+1) },
		func(r *Request) { r.Key = "k\x00" },
		func(r *Request) { r.Seats = MaxSeats + 1 },
		func(r *Request) { r.Seats = -3 },
		func(r *Request) { r.Legs = append(r.Legs, LegRef{"AA", "AA1"}) },
		func(r *Request) { r.Legs[1] = r.Legs[0] },
		func(r *Request) { r.Hold = 25 * time.Hour },
	} {
		r := goodRequest()
		mutate(&r)
		if err := r.Validate(); err == nil {
			t.Errorf("Validate accepted %+v", r)
		}
	}
	if err := goodRequest().Validate(); err != nil {
		t.Errorf("Validate refused a good request: %v", err)
	}
}

func TestParseHold(t *testing.T) {
	for in, want := range map[string]time.Duration{"": 0, "1s": time.Second, "10m": 10 * time.Minute, "24h": 24 * time.Hour} {
		if got, err := ParseHold(in); err != nil || got != want {
			t.Errorf("ParseHold(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"10", "abc", "999ms", "24h1s", "-1m"} {
		if _, err := ParseHold(in); err == nil {
			t.Errorf("ParseHold(%q) accepted it", in)
		}
	}
}

func TestFingerprintCoversEveryField(t *testing.T) {
	base := goodRequest()
	seen := map[string]bool{base.Fingerprint(): true}
	for _, mutate := range []func(*Request){
		func(r *Request) { r.Alliance = "oneworld" },
		func(r *Request) { r.Seats = 3 },
		func(r *Request) { r.Hold = time.Minute },
		func(r *Request) { r.Legs = r.Legs[:1] },
		func(r *Request) { r.Legs = []LegRef{r.Legs[1], r.Legs[0]} },
		func(r *Request) { r.Legs[0].Flight = "LY002" },
	} {
		r := goodRequest()
		mutate(&r)
		if fp := r.Fingerprint(); seen[fp] {
			t.Errorf("%+v has the fingerprint of another request", r)
		} else {
			seen[fp] = true
		}
	}
	r := goodRequest()
	r.Key = "another key"
	if r.Fingerprint() != base.Fingerprint() {
		t.Error("the key changed the fingerprint: a retry must match")
	}
}

func TestCheckTrip(t *testing.T) {
	ly := fl("LY001", "TLV", "FRA", at(6, 0), at(10, 0), 5)
	for name, tc := range map[string]struct {
		legs []flight.Flight
		ok   bool
	}{
		"direct":            {[]flight.Flight{ly}, true},
		"connection":        {[]flight.Flight{ly, fl("UA123", "FRA", "JFK", at(10, 30), at(18, 0), 5)}, true},
		"too short":         {[]flight.Flight{ly, fl("UA123", "FRA", "JFK", at(10, 29), at(18, 0), 5)}, false},
		"other airport":     {[]flight.Flight{ly, fl("UA123", "MUC", "JFK", at(12, 0), at(18, 0), 5)}, false},
		"back to origin":    {[]flight.Flight{ly, fl("UA123", "FRA", "TLV", at(12, 0), at(16, 0), 5)}, false},
		"next day":          {[]flight.Flight{ly, fl("UA123", "FRA", "JFK", at(12, 0).Add(24*time.Hour), at(18, 0).Add(24*time.Hour), 5)}, false},
		"second goes first": {[]flight.Flight{fl("UA123", "FRA", "JFK", at(12, 0), at(18, 0), 5), ly}, false},
	} {
		err := CheckTrip(tc.legs, 30*time.Minute)
		var fe *FieldError
		if tc.ok != (err == nil) || (err != nil && (!errors.As(err, &fe) || fe.Field != "legs")) {
			t.Errorf("%s: CheckTrip = %v, want ok=%v (or a FieldError on legs)", name, err, tc.ok)
		}
	}
}

// TestDecideProperties checks, on random legs and counts, that a reservation takes exactly the
// seats asked on every leg or changes nothing, never books beyond a flight's seats, and that
// releasing it gives back the counts it started from.
func TestDecideProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		legs := []flight.Flight{fl("LY001", "TLV", "FRA", at(6, 0), at(10, 0), rng.IntN(6))}
		if rng.IntN(2) == 0 {
			legs = append(legs, fl("UA123", "FRA", "JFK", at(11, 0), at(18, 0), rng.IntN(6)))
		}
		booked := Counts{}
		for _, f := range legs {
			booked[f.Key()] = rng.IntN(f.Seats + 2) // sometimes beyond capacity: a shrunken file
		}
		seats := 1 + rng.IntN(4)
		next, err := Decide(legs, booked, seats)
		fits := true
		for _, f := range legs {
			fits = fits && Left(f, booked[f.Key()]) >= seats
		}
		if (err == nil) != fits {
			t.Fatalf("Decide(%v, %v, %d) = %v, %v; fits=%v", legs, booked, seats, next, err, fits)
		}
		if err != nil {
			var ce *ConflictError
			if !errors.As(err, &ce) || !strings.Contains(ce.Reason, "seats left") {
				t.Fatalf("refusal %v is not a conflict naming the seats left", err)
			}
			continue
		}
		rec := New("star.x", Request{Alliance: "star", Seats: seats}, legs, at(1, 0))
		for _, f := range legs {
			if next[f.Key()] != booked[f.Key()]+seats || next[f.Key()] > f.Seats {
				t.Fatalf("leg %s: %d booked then %d", f.Number, booked[f.Key()], next[f.Key()])
			}
		}
		back := Release(rec, next)
		for _, f := range legs {
			if back[f.Key()] != booked[f.Key()] {
				t.Fatalf("release of %d seats on %s: %d, want %d", seats, f.Number, back[f.Key()], booked[f.Key()])
			}
		}
	}
}

func TestIDs(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := NewID("star-1")
		if a, ok := AllianceOf(id); !ok || a != "star-1" || seen[id] {
			t.Fatalf("NewID = %q: alliance %q %v, seen before %v", id, a, ok, seen[id])
		}
		seen[id] = true
	}
	for _, bad := range []string{"", "star", ".abcdefghijklmnopqrstuvwxyz", "star.ABCDEFGHIJKLMNOPQRSTUVWX", "star.abc", "star.abcdefghijklmnopqrstuvwxy1"} {
		if _, ok := AllianceOf(bad); ok {
			t.Errorf("AllianceOf(%q) accepted it", bad)
		}
	}
}

func TestEndings(t *testing.T) {
	hold := New("star.x", Request{Alliance: "star", Seats: 1, Hold: time.Minute}, []flight.Flight{fl("LY001", "TLV", "FRA", at(6, 0), at(10, 0), 5)}, at(1, 0))
	if hold.Status != Held || !hold.ExpiresAt.Equal(at(1, 1)) {
		t.Fatalf("hold: %+v", hold)
	}
	if e, err := ConfirmAt(hold, at(1, 0).Add(59*time.Second)); e != Confirm || err != nil {
		t.Errorf("confirm before expiry: %v %v", e, err)
	}
	if e, err := ConfirmAt(hold, at(1, 1)); e != ExpireNow || err == nil {
		t.Errorf("confirm at expiry: %v %v", e, err)
	}
	if !Due(hold, at(1, 1)) || Due(hold, at(1, 0)) {
		t.Error("Due is wrong around the expiry")
	}
	for status, want := range map[string]Ending{Confirmed: Keep, Cancelled: Refuse, Expired: Refuse} {
		r := hold
		r.Status = status
		if e, _ := ConfirmAt(r, at(1, 0)); e != want {
			t.Errorf("confirm a %s booking: %v, want %v", status, e, want)
		}
	}
	for status, want := range map[string]Ending{Confirmed: Free, Held: Free, Cancelled: Keep, Expired: Keep} {
		r := hold
		r.Status = status
		if e := Cancel(r); e != want {
			t.Errorf("cancel a %s booking: %v, want %v", status, e, want)
		}
	}
}

// TestCheckPriceRefusesABookingAboveWhatCanBeShown: a price per seat times the seats above
// MaxPrice (int64 would overflow long after) is refused before anything is booked, naming seats;
// one at the limit is taken.
func TestCheckPriceRefusesABookingAboveWhatCanBeShown(t *testing.T) {
	leg := func(price flight.Cents) flight.Flight {
		return flight.Flight{Number: "LY1", Seller: "LY", Price: price}
	}
	for _, c := range []struct {
		legs  []flight.Flight
		seats int
		field string // "" when allowed
	}{
		{[]flight.Flight{leg(100)}, 1000, ""},
		{[]flight.Flight{leg(MaxPrice / 2), leg(MaxPrice / 2)}, 1, ""},
		{[]flight.Flight{leg(MaxPrice/2 + 1), leg(MaxPrice / 2)}, 1, "legs"},
		{[]flight.Flight{leg(600_000_000_000_000)}, 2, "seats"},    // 6e12 a seat, twice: above 2^50 cents
		{[]flight.Flight{leg(99_999_999_999_999_999)}, 93, "legs"}, // would overflow int64
		{[]flight.Flight{leg(MaxPrice / 1000)}, 1000, ""},
		{[]flight.Flight{leg(MaxPrice/1000 + 1)}, 1000, "seats"},
	} {
		err := CheckPrice(c.legs, c.seats)
		var fe *FieldError
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%v × %d: %v, want allowed", c.legs, c.seats, err)
		case c.field != "" && (!errors.As(err, &fe) || fe.Field != c.field):
			t.Errorf("%v × %d: %v, want a FieldError on %s", c.legs, c.seats, err, c.field)
		}
	}
}
