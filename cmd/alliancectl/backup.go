package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"flightalliance/internal/backup"
)

// backupTimeout bounds a whole backup: a snapshot of an alliance's tree is megabytes.
const backupTimeout = 10 * time.Minute

// cmdBackup writes a verified etcd snapshot of an alliance's tree — its bookings are the one
// thing that cannot be rebuilt from the sellers' files — read from the etcd leader.
func cmdBackup(ctx context.Context, args []string, out io.Writer) error {
	fs, dir := newFlags("backup", "backup --out FILE [--endpoints URLs | --search URL] [--alliance A] [--keys DIR | --cacert F --cert F --key F]\n"+
		"  (an etcd snapshot of the alliance's tree, from its leader, verified; without --endpoints or --search: --dir's alliance)", out)
	rf := addRemoteFlags(fs, true)
	file := fs.String("out", "", "the snapshot file to write (written beside it first, verified, then renamed: an existing file is replaced only by a good snapshot)")
	if _, err := parse(fs, args, 0, ""); err != nil {
		return err
	}
	if *file == "" {
		return usagef("--out: give the file to write the snapshot to")
	}
	if st, err := os.Stat(filepath.Dir(*file)); err != nil || !st.IsDir() {
		return usagef("--out: %s: its directory %s does not exist", *file, filepath.Dir(*file))
	}
	rm, err := rf.open()
	if err != nil {
		return err
	}
	src, err := backupSource(ctx, *dir, rf, rm)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, backupTimeout)
	defer cancel()
	taken, sum, err := backup.Save(ctx, src, *file)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	fmt.Fprintf(out, "backup: snapshot of %s's etcd from %s (%s, the leader; storage version %s) → %s\n",
		strings.Join(sum.Alliances, ", "), taken.Member, taken.Endpoint, orNone(taken.Version), *file)
	fmt.Fprintf(out, "  verified: etcd's sha256 of the database, and bbolt's consistency check\n")
	fmt.Fprintf(out, "  revision %d, %d keys, %d leases (the running machines' sessions), %s (hash %08x)\n",
		sum.Revision, sum.Keys, sum.Leases, byteSize(sum.Size), sum.Hash)
	fmt.Fprintf(out, "  bookings: %s\n", sum.BookingText())
	fmt.Fprintf(out, "restore it into a new alliance with `alliancectl restore --snapshot %s --name NAME --data-dir DIR --peers NAME=URL,...` (docs/operations/recovery.md)\n",
		shellQuote(*file))
	return nil
}

// backupSource is the etcd a backup reads: the remote flags' (the endpoints, or the client URLs
// the delegate's /status lists), or the running machines of --dir's alliance.
func backupSource(ctx context.Context, dir string, rf *remoteFlags, rm *remote) (backup.Source, error) {
	if rf.given() {
		flagName, endpoints := "--endpoints", rm.endpoints
		if rm.search != "" {
			var err error
			if endpoints, err = rm.endpointsOf(ctx); err != nil {
				return backup.Source{}, err
			}
			flagName = "the etcd client URLs " + rm.search + " names"
		}
		eps, _, err := rm.reachEndpoints(ctx, flagName, endpoints)
		if err != nil {
			return backup.Source{}, err
		}
		var t *tls.Config
		if strings.HasPrefix(eps[0], "https://") {
			t = rm.tls
		}
		return backup.Source{Endpoints: eps, TLS: t}, nil
	}
	s, _, err := openState(dir)
	if err != nil {
		return backup.Source{}, err
	}
	alliance := rf.alliance
	if alliance == "" {
		alliance = s.Alliances[0].Name
	}
	if !s.hasAlliance(alliance) {
		return backup.Source{}, usagef("--alliance: no alliance %q in this run", alliance)
	}
	var src backup.Source
	for _, m := range s.machines(alliance) {
		if inspect(*m) == procRunning {
			src.Endpoints = append(src.Endpoints, s.scheme()+m.advertised().Client)
		}
	}
	if len(src.Endpoints) == 0 {
		return src, fmt.Errorf("alliance %s has no running machine", alliance)
	}
	if s.secure() {
		if src.TLS, err = s.keys().clientFiles().Client(); err != nil {
			return src, fmt.Errorf("alliancectl's client certificate: %w", err)
		}
	}
	return src, nil
}

// byteSize is n bytes for a human.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
