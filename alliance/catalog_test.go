package alliance

import (
	"slices"
	"testing"

	"flightalliance/coord"
)

// TestCatalogGainingASellerPurges: a seller new to the catalog calls onNew (the delegate's purge:
// an answer kept from before lacks its flights without saying so); the same seller recorded
// again, or a seller deleted, does not.
func TestCatalogGainingASellerPurges(t *testing.T) {
	calls := 0
	c := newCatalog(func() { calls++ })
	for _, step := range []struct {
		what string
		ev   coord.Event
		want int
	}{
		{"the first listing", coord.Event{Type: coord.EventResync, Children: []coord.Child{{Name: "LY"}}}, 1},
		{"UA recorded", coord.Event{Type: coord.EventCreated, Name: "UA"}, 1},
		{"UA recorded again", coord.Event{Type: coord.EventChanged, Name: "UA"}, 0},
		{"LY deleted", coord.Event{Type: coord.EventDeleted, Name: "LY"}, 0},
		{"a relisting with nothing new", coord.Event{Type: coord.EventResync, Children: []coord.Child{{Name: "UA"}}}, 0},
		{"a relisting with AF", coord.Event{Type: coord.EventResync, Children: []coord.Child{{Name: "UA"}, {Name: "AF"}}}, 1},
	} {
		before := calls
		c.mirror.Apply(step.ev)
		if got := calls - before; got != step.want {
			t.Errorf("%s: onNew called %d times, want %d", step.what, got, step.want)
		}
	}
	if got := c.list(); !slices.Equal(got, []string{"AF", "UA"}) {
		t.Errorf("catalog = %v, want [AF UA]", got)
	}
}
