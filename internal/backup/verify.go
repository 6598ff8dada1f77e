package backup

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
	"go.etcd.io/etcd/api/v3/mvccpb"
	"go.etcd.io/etcd/etcdutl/v3/snapshot"
	"go.etcd.io/etcd/server/v3/storage/mvcc"
	"go.uber.org/zap"
	"google.golang.org/protobuf/proto"
)

// ErrNotSnapshot says a file is not a whole etcd snapshot: no sha256 trailer, a trailer that
// does not match, or a database that fails its consistency check.
var ErrNotSnapshot = errors.New("not a whole etcd snapshot")

// Summary is what a verified snapshot holds.
type Summary struct {
	Revision int64  // the store's revision when the snapshot was taken
	Keys     int    // live keys
	Size     int64  // bytes of the file
	Hash     uint32 // etcdutl's hash of the database's contents (as `etcdutl snapshot status` shows it)
	Version  string // storage version of the etcd that wrote it
	Leases   int    // leases: the sessions of the machines that ran, ephemeral
	// Alliances are the alliances with keys under /alliances/, sorted.
	Alliances []string
	// Bookings counts the booking records of each alliance by status (confirmed, held,
	// cancelled, expired).
	Bookings map[string]map[string]int
}

// BookingCount is the number of booking records of every alliance and status.
func (s Summary) BookingCount() int {
	n := 0
	for _, byStatus := range s.Bookings {
		for _, c := range byStatus {
			n += c
		}
	}
	return n
}

// BookingText is the bookings of the snapshot for a human: "12 (star: 10 confirmed, 2 held)".
func (s Summary) BookingText() string {
	var parts []string
	for _, a := range slices.Sorted(maps.Keys(s.Bookings)) {
		var st []string
		for _, status := range slices.Sorted(maps.Keys(s.Bookings[a])) {
			st = append(st, fmt.Sprintf("%d %s", s.Bookings[a][status], status))
		}
		parts = append(parts, a+": "+strings.Join(st, ", "))
	}
	if len(parts) == 0 {
		return "0"
	}
	return fmt.Sprintf("%d (%s)", s.BookingCount(), strings.Join(parts, "; "))
}

// Verify checks that file is a whole etcd snapshot — the sha256 etcd appends to what it sends
// matches the database, and the database passes bbolt's consistency check — and summarizes it.
func Verify(file string) (Summary, error) {
	size, err := checkTrailer(file)
	if err != nil {
		return Summary{}, err
	}
	st, err := snapshot.NewV3(zap.NewNop()).Status(file)
	if err != nil {
		return Summary{}, fmt.Errorf("%s: %w: %w", file, ErrNotSnapshot, err)
	}
	sum := Summary{Revision: st.Revision, Keys: st.TotalKey, Size: size, Hash: st.Hash, Version: st.Version,
		Bookings: map[string]map[string]int{}}
	if err := sum.read(file); err != nil {
		return Summary{}, fmt.Errorf("%s: %w", file, err)
	}
	return sum, nil
}

// checkTrailer checks the sha256 of the database that etcd appends to a snapshot it sends (as
// etcdutl snapshot restore does) and returns the file's size.
func checkTrailer(file string) (int64, error) {
	f, err := os.Open(file)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	size := st.Size()
	// etcd's databases are whole pages; the snapshot it sends ends with a 32-byte sha256.
	if size < 512 || size%512 != sha256.Size {
		return 0, fmt.Errorf("%s: %w: %d bytes, not a database followed by etcd's sha256 (a truncated download, or a member's db file copied by hand)",
			file, ErrNotSnapshot, size)
	}
	h := sha256.New()
	if _, err := io.CopyN(h, f, size-sha256.Size); err != nil {
		return 0, fmt.Errorf("%s: %w", file, err)
	}
	want := make([]byte, sha256.Size)
	if _, err := io.ReadFull(f, want); err != nil {
		return 0, fmt.Errorf("%s: %w", file, err)
	}
	if !bytes.Equal(h.Sum(nil), want) {
		return 0, fmt.Errorf("%s: %w: its sha256 does not match the one etcd appended (the file was changed or damaged)", file, ErrNotSnapshot)
	}
	return size, nil
}

// read fills in what the snapshot says of the alliances: the latest value of every key under
// /alliances/ (the key bucket holds every revision, oldest first), and the leases.
func (s *Summary) read(file string) error {
	db, err := bolt.Open(file, 0o400, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		return err
	}
	defer db.Close()
	live := map[string][]byte{} // key → latest value, for keys under /alliances/
	return db.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket([]byte("lease")); b != nil {
			s.Leases = b.Stats().KeyN
		}
		b := tx.Bucket([]byte("key"))
		if b == nil {
			return fmt.Errorf("%w: no key bucket", ErrNotSnapshot)
		}
		err := b.ForEach(func(rev, v []byte) error {
			var kv mvccpb.KeyValue
			if err := proto.Unmarshal(v, &kv); err != nil {
				return fmt.Errorf("%w: revision %x: %w", ErrNotSnapshot, rev, err)
			}
			key := string(kv.Key)
			if !strings.HasPrefix(key, alliancesPrefix) {
				return nil
			}
			if mvcc.IsTombstone(rev) {
				delete(live, key)
			} else {
				live[key] = kv.Value
			}
			return nil
		})
		if err != nil {
			return err
		}
		s.count(live)
		return nil
	})
}

// alliancesPrefix is where every alliance's keys live (docs/api.md, "The coordination tree").
const alliancesPrefix = "/alliances/"

// count records the alliances of live and counts their booking records
// (/alliances/<alliance>/bookings/<id>) by status.
func (s *Summary) count(live map[string][]byte) {
	seen := map[string]bool{}
	for key, value := range live {
		alliance, rest, _ := strings.Cut(strings.TrimPrefix(key, alliancesPrefix), "/")
		seen[alliance] = true
		if !strings.HasPrefix(rest, "bookings/") {
			continue
		}
		var b struct {
			Status string `json:"status"`
		}
		if json.Unmarshal(value, &b) != nil || b.Status == "" {
			b.Status = "unreadable"
		}
		if s.Bookings[alliance] == nil {
			s.Bookings[alliance] = map[string]int{}
		}
		s.Bookings[alliance][b.Status]++
	}
	s.Alliances = slices.Sorted(maps.Keys(seen))
}
