package integration

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"flightalliance/tests/framework"
)

// chromiumPath is Debian's chromium, which `make deps` installs.
const chromiumPath = "/usr/bin/chromium"

// pageSize is the console's page size the test picks (one of the form's choices).
const pageSize = 10

// TestWebConsole uses the search server's web console in a real headless Chromium, against a real
// search server and a real alliance of three machines: a search typed into the form shows the
// reference's trips, page by page, and its link reproduces it; a trip is held, confirmed and
// cancelled from the page; the live picture shows the machines and their PRIMARY and BACKUP
// sellers as the coordination tree has them, marks a killed machine down without a reload, and
// drops it once the alliance removed it. The page logs no JavaScript error and fetches nothing
// from anywhere but the search server. Every step leaves a screenshot, named in failures.
func TestWebConsole(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("this test drives Debian's chromium at %s, which is missing (`make deps` installs it): %v", chromiumPath, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	w := newBookingWorld(t, map[string][]string{"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH"}}, allianceOpts{perDay: 120}, nil)
	a := w.a
	q, want := richestQuery(a.activeData())
	if len(want) <= pageSize {
		t.Fatalf("%v has %d trips: the test wants more than a page of %d", q, len(want), pageSize)
	}
	cheapest := firstLeg(t, a.activeData(), want[0])
	w.waitBookable(cheapest, 90*time.Second)
	framework.Eventually(t, 30*time.Second, "the search server answers complete", func() error {
		return checkSearch(w.base, []*testAlliance{a}, []query{q})
	})

	d := startConsoleDriver(ctx, t, startChromium(ctx, t, framework.SearchSPKI(t, w.base)), w.base)
	parent := t
	const step = 20 * time.Second

	t.Run("live picture", func(t *testing.T) {
		d.do(t, "open", step, nil)
		d.waitPicture(t, 30*time.Second, "the picture shows m1, m2, m3 and the placement of the tree", func(p consolePicture) error {
			return pictureMatchesTree(ctx, a, p, []string{"m1", "m2", "m3"})
		})
	})

	var page1 consoleResults
	t.Run("search typed into the form", func(t *testing.T) {
		d.decode(t, d.do(t, "search", step, map[string]any{"src": q.src, "dst": q.dst, "date": q.date.String(), "limit": pageSize}), &page1)
		if page1.Complete != "true" {
			t.Fatalf("the answer is not shown complete: %q (%s)", page1.Completeness, d.shots())
		}
		if got := page1.rendered(); len(got) == 0 || got[0] != want[0] || !slices.Equal(got, want[:pageSize]) {
			t.Fatalf("the page shows %d trips %v…, the reference's first %d are %v… (cheapest %q) (%s)", len(got), head(got), pageSize, head(want), want[0], d.shots())
		}
		if wantInfo := fmt.Sprintf("Trips 1–%d of %d", pageSize, len(want)); page1.PageInfo != wantInfo {
			t.Errorf("pager says %q, want %q", page1.PageInfo, wantInfo)
		}
		for _, p := range []string{"src=" + q.src, "dst=" + q.dst, "date=" + q.date.String()} {
			if !strings.Contains(page1.URL, p) {
				t.Errorf("the page's URL %q does not carry %s", page1.URL, p)
			}
		}
	})

	t.Run("book, confirm and cancel from the page", func(t *testing.T) {
		var held, confirmed, cancelled consoleBooking
		d.decode(t, d.do(t, "book", step, map[string]any{"row": 0, "seats": 2, "hold": "10m"}), &held)
		if held.Status != "held" || held.Fields["expires"] == "" || held.Fields["id"] == "" {
			t.Fatalf("after booking a hold the page shows %+v (%s)", held, d.shots())
		}
		if wantPrice := tripPrice(t, want[0], 2); held.Fields["price"] != wantPrice {
			t.Errorf("the hold of 2 seats costs %q on the page, want %q", held.Fields["price"], wantPrice)
		}
		id := held.Fields["id"]
		if got := bookingStatus(ctx, t, w, id); got != "held" {
			t.Fatalf("the API says booking %s is %q, the page said held", id, got)
		}
		d.decode(t, d.do(t, "confirm", step, nil), &confirmed)
		if confirmed.Status != "confirmed" || confirmed.Fields["id"] != id {
			t.Fatalf("after Confirm hold the page shows %+v (%s)", confirmed, d.shots())
		}
		d.decode(t, d.do(t, "cancel", step, nil), &cancelled)
		if cancelled.Status != "cancelled" || cancelled.Fields["id"] != id {
			t.Fatalf("after Cancel booking the page shows %+v (%s)", cancelled, d.shots())
		}
		if got := bookingStatus(ctx, t, w, id); got != "cancelled" {
			t.Fatalf("the API says booking %s is %q, the page said cancelled", id, got)
		}
		w.t = t
		defer func() { w.t = parent }()
		if booked := w.booked(cheapest); booked != 0 {
			t.Errorf("%s has %d seats booked after the cancel, want none", cheapest.Number, booked)
		}
	})

	t.Run("paging and a link that reproduces the search", func(t *testing.T) {
		var page2, linked consoleResults
		d.decode(t, d.do(t, "nextPage", step, nil), &page2)
		if got, w2 := page2.rendered(), want[pageSize:min(2*pageSize, len(want))]; !slices.Equal(got, w2) {
			t.Fatalf("page 2 shows %v…, want %v… (%s)", head(got), head(w2), d.shots())
		}
		d.decode(t, d.do(t, "open", step, map[string]any{"path": page2.URL, "results": true}), &linked)
		if !slices.Equal(linked.rendered(), page2.rendered()) || linked.URL != page2.URL {
			t.Fatalf("opening %s shows %v…, the search it came from showed %v… (%s)", page2.URL, head(linked.rendered()), head(page2.rendered()), d.shots())
		}
	})

	t.Run("a killed machine changes the picture without a reload", func(t *testing.T) {
		d.do(t, "mark", step, map[string]any{"value": "not reloaded"})
		a.kill("m3")
		killed := time.Now()
		d.waitPicture(t, 10*time.Second, "m3 marked down or unreachable", func(p consolePicture) error {
			m, ok := p.machine("star", "m3")
			if !ok || (m.State != "down" && m.State != "unreachable") {
				return fmt.Errorf("m3 is shown %+v", m)
			}
			return nil
		})
		t.Logf("the page marked the killed m3 down %v after kill -9", time.Since(killed).Round(10*time.Millisecond))
		var mark string
		d.decode(t, d.do(t, "readMark", step, nil), &mark)
		if mark != "not reloaded" {
			t.Fatalf("the page was reloaded (its mark is %q) (%s)", mark, d.shots())
		}
		d.waitPicture(t, 90*time.Second, "m3 removed and its sellers placed on m1 and m2", func(p consolePicture) error {
			return pictureMatchesTree(ctx, a, p, []string{"m1", "m2"})
		})
		t.Logf("m3 left the picture %v after kill -9", time.Since(killed).Round(10*time.Millisecond))
	})

	d.do(t, "close", step, nil)
}

// pictureMatchesTree checks the page's picture of star against the coordination tree: the live
// machines, all up, m1 the delegate, and every seller PRIMARY and BACKUP where the tree says.
func pictureMatchesTree(ctx context.Context, a *testAlliance, p consolePicture, live []string) error {
	al, ok := p.alliance("star")
	if !ok {
		return fmt.Errorf("no alliance star in the picture")
	}
	var names []string
	for _, m := range al.Machines {
		names = append(names, m.Name)
		if m.State != "up" {
			return fmt.Errorf("%s is shown %q", m.Name, m.State)
		}
		if m.Delegate != (m.Name == "m1") {
			return fmt.Errorf("%s is shown delegate=%v", m.Name, m.Delegate)
		}
	}
	if !slices.Equal(names, live) {
		return fmt.Errorf("machines shown %v, want %v", names, live)
	}
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	tree, err := a.readTree(rctx)
	if err != nil {
		return err
	}
	if err := checkInvariants(tree, live, a.sellers()); err != nil {
		return fmt.Errorf("the tree is not settled: %w", err)
	}
	shown := map[string]map[string]string{}
	for _, c := range al.Cells {
		if shown[c.Seller] == nil {
			shown[c.Seller] = map[string]string{}
		}
		shown[c.Seller][c.Machine] = c.Role
	}
	for _, s := range a.sellers() {
		if !maps.Equal(shown[s], tree.holders[s]) {
			return fmt.Errorf("seller %s is shown %v, the tree says %v", s, shown[s], tree.holders[s])
		}
	}
	return nil
}
