package integration

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/search"
	"flightalliance/tests/framework"
)

// controls are a search's paging and controls, as the REST parameters give them.
type controls struct {
	limit, offset int
	nonstop       bool
	maxPrice      string // "" none
	sort          string // "" price
}

func (c controls) values(v url.Values) {
	if c.limit > 0 {
		v.Set("limit", strconv.Itoa(c.limit))
	}
	if c.offset > 0 {
		v.Set("offset", strconv.Itoa(c.offset))
	}
	if c.nonstop {
		v.Set("nonstop", "true")
	}
	if c.maxPrice != "" {
		v.Set("max_price", c.maxPrice)
	}
	if c.sort != "" {
		v.Set("sort", c.sort)
	}
}

func (c controls) String() string {
	v := url.Values{}
	c.values(v)
	return v.Encode()
}

func pagedURL(base string, q query, c controls) string {
	u := searchURL(base, q)
	v := url.Values{}
	c.values(v)
	if len(v) > 0 {
		u += "&" + v.Encode()
	}
	return u
}

// allianceTrip is a reference trip with the alliance that sells it.
type allianceTrip struct {
	refTrip
	alliance string
}

// referenceControlled answers a query with controls by brute force over every alliance's
// flights, straight from API.md: nonstop keeps direct trips, max_price trips that cost at most
// that; the order's key, then price, final arrival, flight numbers leg by leg (a direct trip
// before a connection that starts with it), sellers leg by leg, then the alliance. It returns the
// whole list (total is its length) and the window of offset and limit, rendered as renderedTrips.
func referenceControlled(alliances map[string]map[string][]flight.Flight, q query, c controls, minConn time.Duration) (whole, window []string) {
	var maxCents flight.Cents
	if c.maxPrice != "" {
		var err error
		if maxCents, err = flight.ParseCents(c.maxPrice); err != nil {
			panic(err)
		}
	}
	var all []allianceTrip
	for name, data := range alliances {
		for _, t := range bruteForce(data, q, minConn) {
			if (c.nonstop && len(t.legs) != 1) || (c.maxPrice != "" && t.price > maxCents) {
				continue
			}
			all = append(all, allianceTrip{t, name})
		}
	}
	key := func(t allianceTrip) time.Time {
		switch c.sort {
		case "duration":
			return time.Time{}.Add(t.arrival.Sub(t.legs[0].Departure))
		case "departure":
			return t.legs[0].Departure
		case "arrival":
			return t.arrival
		}
		return time.Time{}
	}
	slices.SortFunc(all, func(a, b allianceTrip) int {
		if c := key(a).Compare(key(b)); c != 0 {
			return c
		}
		if c := cmp.Compare(a.price, b.price); c != 0 {
			return c
		}
		if c := a.arrival.Compare(b.arrival); c != 0 {
			return c
		}
		if c := slices.Compare(numbers(a.legs), numbers(b.legs)); c != 0 {
			return c
		}
		if c := slices.Compare(sellersOf(a.legs), sellersOf(b.legs)); c != 0 {
			return c
		}
		return cmp.Compare(a.alliance, b.alliance)
	})
	refs := make([]refTrip, len(all))
	for i, t := range all {
		refs[i] = t.refTrip
	}
	whole = renderRef(refs)
	lo := min(c.offset, len(whole))
	hi := len(whole)
	if c.limit > 0 {
		hi = min(lo+c.limit, hi)
	}
	return whole, whole[lo:hi]
}

// pagingQueries picks n pairs whose whole list is long enough to page through and holds several
// trips of every alliance, so that pages merge the tops of several alliances.
func pagingQueries(alliances map[string]map[string][]flight.Flight, n int) []query {
	var datas []map[string][]flight.Flight
	for _, d := range alliances {
		datas = append(datas, d)
	}
	var out []query
	for _, q := range busyQueries(mergeData(datas...), 100) {
		every := true
		for _, d := range datas {
			every = every && len(bruteForce(d, q, 30*time.Minute)) >= 5
		}
		if whole, _ := referenceControlled(alliances, q, controls{}, 30*time.Minute); every && len(whole) >= 40 {
			out = append(out, q)
		}
		if len(out) == n {
			break
		}
	}
	return out
}

func sellersOf(legs []flight.Flight) []string {
	out := make([]string, len(legs))
	for i, f := range legs {
		out[i] = f.Seller
	}
	return out
}

// searchPaged asks the search server and checks the answer is complete.
func searchPaged(base string, q query, c controls) (search.Answer, error) {
	var ans search.Answer
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := getJSON(ctx, pagedURL(base, q, c), &ans); err != nil {
		return ans, err
	}
	if !ans.Complete {
		return ans, fmt.Errorf("%v %v: incomplete: %+v", q, c, ans.Alliances)
	}
	return ans, nil
}

// TestPagingAndControlsAcrossAlliances runs a search server with two real alliances and checks,
// against the brute-force reference, every order with and without nonstop and max_price: the
// whole list, its total, and that its pages, one after the other, are the whole list. Bad
// parameters are 400s naming them; flights search prints the window and the total.
func TestPagingAndControlsAcrossAlliances(t *testing.T) {
	dir := t.TempDir()
	base, _ := framework.StartSearch(t, dir, "--registration-ttl", "10s", "--delegate-timeout", "5s")
	star := startAlliance(t, "star", map[string][]string{"a1": {"LY"}, "a2": {"UA"}}, allianceOpts{search: []string{base}, perDay: 600, days: 1})
	sky := startAlliance(t, "sky", map[string][]string{"b1": {"AF"}}, allianceOpts{search: []string{base}, perDay: 600, days: 1})
	star.waitSettled(90 * time.Second)
	sky.waitSettled(90 * time.Second)
	datas := map[string]map[string][]flight.Flight{"star": star.activeData(), "sky": sky.activeData()}
	queries := pagingQueries(datas, 2)
	if len(queries) < 2 {
		t.Fatalf("the generated data has %d pairs with long lists in both alliances", len(queries))
	}

	framework.Eventually(t, 60*time.Second, "both alliances answer complete through the search server", func() error {
		for _, q := range queries {
			ans, err := searchPaged(base, q, controls{})
			if err != nil {
				return err
			}
			if len(ans.Alliances) != 2 {
				return fmt.Errorf("alliances %+v", ans.Alliances)
			}
		}
		return nil
	})

	for _, q := range queries {
		whole, _ := referenceControlled(datas, q, controls{}, 30*time.Minute)
		t.Logf("%v: %d trips", q, len(whole))
		// a ceiling in the middle of the list, so that it keeps some trips and drops others
		var mid []string
		for _, r := range whole {
			mid = append(mid, strings.Fields(r)[0])
		}
		slices.SortFunc(mid, func(a, b string) int {
			x, _ := flight.ParseCents(a)
			y, _ := flight.ParseCents(b)
			return cmp.Compare(x, y)
		})
		ceiling := mid[len(mid)/2]
		for _, sort := range []string{"", "price", "duration", "departure", "arrival"} {
			for _, f := range []controls{{}, {nonstop: true}, {maxPrice: ceiling}, {nonstop: true, maxPrice: ceiling}} {
				f.sort = sort
				want, _ := referenceControlled(datas, q, f, 30*time.Minute)
				ans, err := searchPaged(base, q, f)
				if err != nil {
					t.Fatal(err)
				}
				if got := renderedTrips(ans); !slices.Equal(got, want) || ans.Total != len(want) {
					t.Fatalf("%v %v: total %d, %d trips %v…; want %d trips %v…", q, f, ans.Total, len(got), head(got), len(want), head(want))
				}
				var pages []string
				const limit = 13
				for offset := 0; offset < len(want)+limit; offset += limit {
					p := f
					p.limit, p.offset = limit, offset
					page, err := searchPaged(base, q, p)
					if err != nil {
						t.Fatal(err)
					}
					_, window := referenceControlled(datas, q, p, 30*time.Minute)
					if got := renderedTrips(page); !slices.Equal(got, window) || page.Total != len(want) {
						t.Fatalf("%v %v: total %d, page %v; want total %d, page %v", q, p, page.Total, got, len(want), window)
					}
					pages = append(pages, renderedTrips(page)...)
				}
				if !slices.Equal(pages, want) {
					t.Fatalf("%v %v: the pages are not the whole list", q, f)
				}
			}
		}
	}

	t.Run("bad parameters", func(t *testing.T) {
		q := queries[0]
		for _, bad := range []struct{ raw, param string }{
			{"limit=0", "limit"}, {"limit=1001", "limit"}, {"limit=x", "limit"}, {"offset=-1", "offset"},
			{"offset=1.5", "offset"}, {"nonstop=yes", "nonstop"}, {"max_price=-5", "max_price"},
			{"max_price=1.999", "max_price"}, {"sort=cheapest", "sort"}, {"sort=", "sort"}, {"pagesize=5", "pagesize"},
		} {
			resp, err := httpClient.Get(searchURL(base, q) + "&" + bad.raw)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			var e search.ErrorBody
			if resp.StatusCode != http.StatusBadRequest || json.Unmarshal(body, &e) != nil || !strings.HasPrefix(e.Error, bad.param+": ") {
				t.Errorf("%s: %d %s; want 400 naming %s", bad.raw, resp.StatusCode, bytes.TrimSpace(body), bad.param)
			}
		}
	})

	t.Run("flights client", func(t *testing.T) {
		q := queries[0]
		c := controls{limit: 5, offset: 5, sort: "duration", nonstop: false}
		whole, window := referenceControlled(datas, q, c, 30*time.Minute)
		out, err := exec.Command(framework.Bin("flights"), "search", "--server", base, "--ca", framework.CAFile, "--from", q.src, "--to", q.dst,
			"--date", q.date.String(), "--limit", "5", "--offset", "5", "--sort", "duration").Output()
		if err != nil {
			t.Fatalf("flights search: %v\n%s", err, out)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		summary := fmt.Sprintf("trips 6-10 of %d from %s to %s on %s (sorted by duration)", len(whole), q.src, q.dst, q.date)
		if len(lines) != 7 || lines[6] != summary {
			t.Fatalf("flights search printed\n%s\nwant 5 trips and %q", out, summary)
		}
		for i, w := range window {
			if price := strings.Fields(w)[0]; !strings.HasPrefix(lines[1+i], price+"  ") {
				t.Errorf("line %d is %q, want the trip %s", i+1, lines[1+i], w)
			}
		}
	})
}
