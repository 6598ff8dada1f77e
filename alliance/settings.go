package alliance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	clientv3 "go.etcd.io/etcd/client/v3"

	"flightalliance/coord"
)

// maxReplicas bounds --replicas: more copies than this cost more than the failures they cover.
const maxReplicas = 5

// defaultReplicas is the two-copy model: one PRIMARY and one BACKUP.
const defaultReplicas = 2

// allianceSettings is the value of /alliances/<alliance>/config: what every machine of the
// alliance must agree on. The bootstrap writes it; `alliancectl replicas K` changes it live.
type allianceSettings struct {
	Replicas int `json:"replicas"`
}

// decodeSettings reads a config value, refusing one no machine could plan with.
func decodeSettings(value []byte) (allianceSettings, error) {
	var s allianceSettings
	if err := json.Unmarshal(value, &s); err != nil {
		return allianceSettings{}, fmt.Errorf("alliance config: %w", err)
	}
	if s.Replicas < 1 || s.Replicas > maxReplicas {
		return allianceSettings{}, fmt.Errorf("alliance config: replicas %d, want 1 to %d", s.Replicas, maxReplicas)
	}
	return s, nil
}

// ReplicasMismatchError refuses a machine started with another --replicas than its alliance's.
type ReplicasMismatchError struct {
	Alliance   string
	Flag, Have int
}

func (e *ReplicasMismatchError) Error() string {
	return fmt.Sprintf("--replicas %d: alliance %s runs with replicas %d (start without --replicas to adopt it, or change it for every machine with `alliancectl replicas K`)",
		e.Flag, e.Alliance, e.Have)
}

// BadSettingsError refuses a start while the alliance's config cannot be read: an operator must
// fix it (alliancectl replicas K rewrites it).
type BadSettingsError struct {
	Alliance string
	Err      error
}

func (e *BadSettingsError) Error() string {
	return fmt.Sprintf("alliance %s: %v (fix it with `alliancectl replicas K`)", e.Alliance, e.Err)
}

func (e *BadSettingsError) Unwrap() error { return e.Err }

// ensureSettings makes sure the alliance has its settings before this machine takes part: the
// first machine writes them (its --replicas, or the default); a machine started with an explicit
// --replicas that differs from the alliance's is refused. It retries while etcd has no quorum,
// until ctx ends.
func (m *Machine) ensureSettings(ctx context.Context) (rev int64, err error) {
	want := m.cfg.Replicas
	if want == 0 {
		want = defaultReplicas
	}
	value, _ := json.Marshal(allianceSettings{Replicas: want})
	for attempt := 1; ; attempt++ {
		opCtx, cancel := context.WithTimeout(ctx, m.cfg.CallTimeout)
		stat, err := m.tree().Create(opCtx, m.keys.settings(), value)
		if errors.Is(err, coord.ErrNodeExists) {
			var have []byte
			have, stat, err = m.tree().Get(opCtx, m.keys.settings())
			if err == nil {
				cancel()
				s, err := decodeSettings(have)
				if err != nil {
					return 0, &BadSettingsError{Alliance: m.cfg.Alliance, Err: err}
				}
				// Only a fresh start is refused: a member started again in-process (removed while
				// cut off) finds the K its alliance was changed to since, and adopts it.
				if m.cfg.Replicas != 0 && m.cfg.Replicas != s.Replicas && m.replicas.Load() == 0 {
					return 0, &ReplicasMismatchError{Alliance: m.cfg.Alliance, Flag: m.cfg.Replicas, Have: s.Replicas}
				}
				m.replicas.Store(int32(s.Replicas))
				return stat.ModRevision, nil
			}
		} else if err == nil {
			cancel()
			m.log.Info("alliance settings recorded", "replicas", want)
			m.replicas.Store(int32(want))
			return stat.ModRevision, nil
		}
		cancel()
		m.log.Warn("reading the alliance's settings failed; retrying", "attempt", attempt, "err", err)
		if !waitBackoff(ctx, attempt) {
			return 0, ctx.Err()
		}
	}
}

// replicasAt is K as the alliance's settings said at revision rev: every machine of a round
// reads it at the round's revision, so all of them plan with the same K.
func (m *Machine) replicasAt(ctx context.Context, rev int64) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, m.cfg.CallTimeout)
	defer cancel()
	resp, err := m.tree().Client().Get(ctx, m.keys.settings(), clientv3.WithRev(rev))
	if err != nil {
		return 0, fmt.Errorf("alliance config at revision %d: %w", rev, err)
	}
	if len(resp.Kvs) == 0 {
		return defaultReplicas, nil // an alliance bootstrapped before settings existed
	}
	s, err := decodeSettings(resp.Kvs[0].Value)
	if err != nil {
		// Every machine reads the same revision, so every one falls back the same way; the
		// rounds go on re-placing what failures cost instead of stopping.
		m.log.Error("the alliance's config is malformed; planning with the default replicas until it is fixed (alliancectl replicas K)",
			"replicas", defaultReplicas, "err", err)
		return defaultReplicas, nil
	}
	return s.Replicas, nil
}

// followSettings watches the alliance's settings from the revision ensureSettings read them at:
// when K changes, this machine asks for a new round (every machine does; the rounds they ask for
// coalesce), which re-places every seller.
//
// It watches the one key rather than following a folder with coord.Follow as the view and the
// catalog do: Follow follows a folder's children, and the settings' folder is the alliance's
// root, whose listing and watch would carry every booking, hold and round of the alliance to
// read one value; and Follow starts from a listing of its own, not from the revision this
// machine's K was read at.
func (m *Machine) followSettings(ctx context.Context, fromRev int64) {
	for ev := range m.tree().Watch(ctx, m.keys.settings(), coord.WatchOptions{FromRevision: fromRev + 1}) {
		var value []byte
		switch ev.Type {
		case coord.EventCreated, coord.EventChanged:
			value = ev.Value
		case coord.EventResync:
			if len(ev.Children) == 0 {
				continue
			}
			value = ev.Children[0].Value
		default:
			continue
		}
		s, err := decodeSettings(value)
		if err != nil {
			m.log.Warn("ignoring malformed alliance config", "err", err)
			continue
		}
		if old := m.replicas.Swap(int32(s.Replicas)); old != int32(s.Replicas) {
			m.log.Info("alliance replicas changed; asking for a round", "from", old, "to", s.Replicas)
			_ = retry(ctx, func(int) error { return m.requestRound(ctx) })
		}
	}
}
