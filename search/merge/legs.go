package merge

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"flightalliance/contract"
	"flightalliance/soap"
)

// validLeg is a leg of a delegate's answer with its price and instants decoded. An answer
// with shared legs (soap.GetTripsRequest.ShareLegs) has one leg per distinct flight, however
// many trips name it: it is validated once and its JSON is made once, then copied.
type validLeg struct {
	w        *soap.Leg
	cents    contract.Cents
	dep, arr time.Time
	shared   bool
	json     []byte // a shared leg's JSON, made on first use
}

func newLeg(wl *soap.Leg, shared bool) (validLeg, error) {
	cents, dep, arr, err := checkLeg(wl)
	if err != nil {
		return validLeg{}, err
	}
	return validLeg{w: wl, cents: cents, dep: dep, arr: arr, shared: shared}, nil
}

// appendJSON appends the leg's JSON, stamped with alliance (one alliance's answer: the same for
// every trip that names a shared leg). Its prices and instants passed checkLeg, so they hold
// nothing to escape (digits, '.', and what time.Parse takes in an RFC 3339 instant) and are
// copied as they are.
func (l *validLeg) appendJSON(dst []byte, alliance string) []byte {
	if l.json != nil {
		return append(dst, l.json...)
	}
	start := len(dst)
	wl := l.w
	dst = append(dst, `{"flight":`...)
	dst = appendString(dst, wl.Flight)
	dst = append(dst, `,"seller":`...)
	dst = appendString(dst, wl.Seller)
	dst = append(dst, `,"alliance":`...)
	dst = appendString(dst, alliance)
	dst = append(dst, `,"src":`...)
	dst = appendString(dst, wl.Src)
	dst = append(dst, `,"dst":`...)
	dst = appendString(dst, wl.Dst)
	dst = append(dst, `,"departure":`...)
	dst = appendPlain(dst, wl.Departure)
	dst = append(dst, `,"arrival":`...)
	dst = appendPlain(dst, wl.Arrival)
	dst = append(dst, `,"price":`...)
	dst = appendPlain(dst, priceString(wl.Price, l.cents))
	dst = append(dst, `,"seats":`...)
	dst = strconv.AppendInt(dst, int64(wl.Seats), 10)
	dst = append(dst, '}')
	if l.shared {
		l.json = append([]byte(nil), dst[start:]...)
	}
	return dst
}

// converter validates the trips of one alliance's answer: its shared legs once each, up front,
// then trip by trip, the legs of every trip cut from one slab.
type converter struct {
	alliance string
	route    route       // what a trip of the query goes from, to and on
	shared   []validLeg  // the answer's SharedLegs
	inline   []validLeg  // the trips' own legs; capacity for all, so pointers into it stay valid
	legs     []*validLeg // the trips' legs, each trip's a slice of it
}

func newConverter(alliance string, q Query, r *soap.GetTripsResponse) (*converter, error) {
	c := &converter{alliance: alliance, route: routeOf(q), shared: make([]validLeg, len(r.SharedLegs))}
	for i := range r.SharedLegs {
		l, err := newLeg(&r.SharedLegs[i], true)
		if err != nil {
			return nil, fmt.Errorf("shared leg %d: %w", i+1, err)
		}
		c.shared[i] = l
	}
	all, inline := 0, 0
	for i := range r.Trips {
		inline += len(r.Trips[i].Legs)
		all += len(r.Trips[i].Legs) + len(r.Trips[i].LegIndexes)
	}
	c.inline = make([]validLeg, 0, inline)
	c.legs = make([]*validLeg, 0, all)
	return c, nil
}

// trip validates a trip of the answer — one or two valid legs, its own or shared (never both),
// a trip of the query (route.check), a price that is their sum — and decodes its sort keys.
func (c *converter) trip(wt *soap.Trip) (trip, error) {
	if len(wt.Legs) > 0 && len(wt.LegIndexes) > 0 {
		return trip{}, fmt.Errorf("both Legs and LegIndexes")
	}
	if n := len(wt.Legs) + len(wt.LegIndexes); n < 1 || n > 2 {
		return trip{}, fmt.Errorf("%d legs, expected 1 or 2", n)
	}
	first := len(c.legs)
	for j := range wt.Legs {
		l, err := newLeg(&wt.Legs[j], false)
		if err != nil {
			c.legs = c.legs[:first]
			return trip{}, fmt.Errorf("leg %d: %w", j+1, err)
		}
		c.inline = append(c.inline, l) // within capacity: never moves
		c.legs = append(c.legs, &c.inline[len(c.inline)-1])
	}
	for j, k := range wt.LegIndexes {
		if k < 0 || k >= len(c.shared) {
			c.legs = c.legs[:first]
			return trip{}, fmt.Errorf("leg %d: LegIndexes %d is not a position in SharedLegs (%d legs)", j+1, k, len(c.shared))
		}
		c.legs = append(c.legs, &c.shared[k])
	}
	t := trip{price: wt.Price, legs: c.legs[first:len(c.legs):len(c.legs)], alliance: c.alliance}
	if err := c.route.check(t.legs); err != nil {
		return trip{}, err
	}
	for _, l := range t.legs {
		t.cents += l.cents
	}
	t.departure, t.arrival = t.legs[0].dep, t.legs[len(t.legs)-1].arr
	if wt.Price != "" {
		p, err := contract.ParseCents(wt.Price)
		if err != nil {
			return trip{}, err
		}
		if p != t.cents {
			return trip{}, fmt.Errorf("price %q is not the sum of its legs (%s)", wt.Price, t.cents)
		}
	}
	return t, nil
}

// route is what every trip of a query must be: from src to dst, its legs departing on the date
// (UTC), the second leaving from where the first lands (not src or dst: so never the same
// flight twice), no earlier than it lands. A delegate's answer with another trip (a bug, or an
// answer to another query) is refused, not shown as part of a complete answer.
type route struct {
	src, dst string
	day      time.Time // the query's date, 00:00 UTC
	ok       bool      // the date is one (ParseQuery checked it)
}

func routeOf(q Query) route {
	day, err := time.Parse(time.DateOnly, q.Date)
	return route{src: q.Src, dst: q.Dst, day: day, ok: err == nil}
}

func (r route) check(legs []*validLeg) error {
	first, last := legs[0], legs[len(legs)-1]
	switch {
	case first.w.Src != r.src:
		return fmt.Errorf("leaves from %q, not from the query's src %q", first.w.Src, r.src)
	case last.w.Dst != r.dst:
		return fmt.Errorf("lands at %q, not at the query's dst %q", last.w.Dst, r.dst)
	}
	for i, l := range legs {
		if !r.ok || l.dep.Before(r.day) || !l.dep.Before(r.day.Add(24*time.Hour)) {
			return fmt.Errorf("leg %d departs at %s, not on the query's date %s", i+1, l.w.Departure, r.day.Format(time.DateOnly))
		}
	}
	if len(legs) == 2 {
		stop := first.w.Dst
		switch {
		case legs[1].w.Src != stop:
			return fmt.Errorf("leg 2 leaves from %q, not from %q where leg 1 lands", legs[1].w.Src, stop)
		case stop == r.src || stop == r.dst:
			return fmt.Errorf("connects at %q, the query's own src or dst", stop)
		case legs[1].dep.Before(first.arr):
			return fmt.Errorf("leg 2 departs before leg 1 lands")
		}
	}
	return nil
}

// distinctFlights refuses an answer whose legs show one flight (a seller's flight number) with
// two sets of values — airports, instants or price — so that no answer shows a client two
// versions of one flight. The legs of every trip converted so far are read, the shared ones once.
func (c *converter) distinctFlights() error {
	type flightKey struct{ seller, number string }
	seen := make(map[flightKey]*validLeg, len(c.shared)+len(c.inline))
	var twice flightKey // the least, so that the answer does not depend on the trips' order
	found := false
	for _, list := range [][]validLeg{c.shared, c.inline} {
		for i := range list {
			l := &list[i]
			k := flightKey{l.w.Seller, l.w.Flight}
			p, ok := seen[k]
			if !ok {
				seen[k] = l
				continue
			}
			differ := p.w.Src != l.w.Src || p.w.Dst != l.w.Dst || !p.dep.Equal(l.dep) || !p.arr.Equal(l.arr) || p.cents != l.cents
			if differ && (!found || k.seller < twice.seller || k.seller == twice.seller && k.number < twice.number) {
				twice, found = k, true
			}
		}
	}
	if found {
		return fmt.Errorf("flight %q of seller %q shown twice, with other values", clip(twice.number), clip(twice.seller))
	}
	return nil
}

// tripFlights names a trip by its flights ("LY001+UA002").
func tripFlights(t *trip) string {
	names := make([]string, len(t.legs))
	for i, l := range t.legs {
		names[i] = clip(l.w.Flight)
	}
	return strings.Join(names, "+")
}
