package alliance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/placement"
	"flightalliance/coord"
)

// commit adopts the plan of a committed round on this machine: the new assignment becomes the
// copies' and the machine's own tree entries are rewritten where they changed. It returns the
// sellers this machine no longer holds: the round loop drops their copies once the tree shows
// their new holders (or after a grace period).
func (m *Machine) commit(ctx context.Context, gen uint64, plan placement.Result, fetched map[string]*flight.Seller) (unassigned []string, err error) {
	mine := placement.Assignment{Name: m.cfg.Name, Primaries: []string{}, Backups: []string{}}
	for _, a := range plan.Assignments {
		if a.Name == m.cfg.Name {
			mine = a
		}
	}
	unassigned, err = m.copies.commit(gen, mine, fetched)
	if err != nil {
		// The others adopted the plan; this machine cannot. Its entries keep saying what it
		// really holds, and a new round (asked for by the caller) repairs the difference.
		m.log.Error("cannot adopt the committed plan", "err", err)
		return nil, fmt.Errorf("adopting the committed plan: %w", err)
	}
	m.metrics.transfers.Add(float64(len(fetched)))
	for _, sel := range fetched {
		m.metrics.flightsMoved.Add(float64(sel.Len()))
	}
	m.log.Info("round committed", "primaries", mine.Primaries, "backups", mine.Backups,
		"fetched", len(fetched), "promotions", len(plan.Promotions), "lost", plan.Lost)
	if err := m.publish(ctx); err != nil {
		m.log.Error("publishing this machine's entries failed; will retry", "err", err)
		m.republish.Store(true)
	}
	return unassigned, nil
}

// publish writes this machine's entries — the machine entry and one entry per held seller —
// changing only what differs from what it wrote before, in one atomic step.
func (m *Machine) publish(ctx context.Context) error {
	m.publishMu.Lock()
	defer m.publishMu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, m.cfg.CallTimeout)
	defer cancel()

	entry := m.entry()
	value, err := json.Marshal(entry)
	if err != nil {
		return err
	}
	want := map[string]placement.Role{}
	for _, s := range entry.Primaries {
		want[s] = placement.Primary
	}
	for _, s := range entry.Backups {
		want[s] = placement.Backup
	}
	var ops []coord.Op
	if string(value) != string(m.published.entry) {
		ops = append(ops, coord.OpSet(m.keys.machine(m.cfg.Name), value))
	}
	for _, s := range slices.Sorted(maps.Keys(want)) {
		key := m.keys.sellerHolder(s, m.cfg.Name)
		old, had := m.published.roles[s]
		switch {
		case !had:
			ops = append(ops, coord.OpCreate(key, []byte(want[s]), coord.Ephemeral(m.session())))
		case old != want[s]:
			ops = append(ops, coord.OpSet(key, []byte(want[s])))
		}
	}
	for _, s := range slices.Sorted(maps.Keys(m.published.roles)) {
		if _, keep := want[s]; !keep {
			ops = append(ops, coord.OpDelete(m.keys.sellerHolder(s, m.cfg.Name)))
		}
	}
	if len(ops) == 0 {
		return nil
	}
	if _, err := m.tree().Multi(ctx, ops...); err != nil {
		// The write may have been applied although the call failed: learn what the tree holds
		// now, so that the next attempt changes what still differs instead of failing forever.
		m.resyncPublishedLocked(ctx)
		return err
	}
	m.published.entry = value
	m.published.roles = want
	return nil
}

// resyncPublishedLocked reads this machine's entries back into m.published (publishMu held).
func (m *Machine) resyncPublishedLocked(ctx context.Context) {
	value, _, err := m.tree().Get(ctx, m.keys.machine(m.cfg.Name))
	if err != nil && !errors.Is(err, coord.ErrNoNode) {
		return
	}
	holders, _, err := m.tree().Descendants(ctx, m.keys.sellers())
	if err != nil {
		return
	}
	roles := map[string]placement.Role{}
	for _, h := range holders {
		if seller, machine, ok := strings.Cut(h.Name, "/"); ok && machine == m.cfg.Name {
			roles[seller] = placement.Role(h.Value)
		}
	}
	m.published.entry = value
	m.published.roles = roles
}

// entry is this machine's entry as it should read now.
func (m *Machine) entry() machineEntry {
	h := m.copies.holding(m.cfg.Name, m.leaving.Load(), nil)
	versions := map[string]string{}
	for _, s := range append(slices.Clone(h.Primaries), h.Backups...) {
		versions[s] = h.Versions[s]
	}
	return machineEntry{
		Name:      m.cfg.Name,
		URL:       m.cfg.AdvertiseURL,
		Zone:      m.cfg.Zone,
		Primaries: h.Primaries,
		Backups:   h.Backups,
		Versions:  versions,
		Leaving:   h.Leaving,
		Epoch:     m.roundEpoch.Load(),
		Brings:    h.Brings,
	}
}
