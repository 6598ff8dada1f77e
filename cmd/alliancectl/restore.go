package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"flightalliance/internal/backup"
)

// cmdRestore writes the etcd data directory of one bootstrap member of a new alliance from a
// snapshot (etcd's documented restore: etcdutl snapshot restore, run once per member with the
// same member list). Started on it with the same --peers, the airline servers bring back the
// tree of the snapshot, bookings included.
func cmdRestore(_ context.Context, args []string, out io.Writer) error {
	fs, _ := newFlags("restore", "restore --snapshot FILE --name NAME --data-dir DIR --peers NAME=URL,... [--initial-cluster-token T]\n"+
		"  (run once per member of --peers, each with its own --name and --data-dir; docs/operations/recovery.md has the steps)", out)
	snapshot := fs.String("snapshot", "", "the snapshot alliancectl backup (or etcdctl snapshot save) wrote")
	name := fs.String("name", "", "the member to write: the airline server's --name, one of --peers")
	dataDir := fs.String("data-dir", "", "the airline server's --data-dir: must not exist or be empty")
	peers := fs.String("peers", "", "every bootstrap member of the new alliance, NAME=peer URL, comma-separated: the airline servers' --peers, the same for each member")
	token := fs.String("initial-cluster-token", "", "the new cluster's token (default: flightalliance-<alliance>, as the airline server's own bootstrap sets it)")
	if _, err := parse(fs, args, 0, ""); err != nil {
		return err
	}
	for _, f := range []struct{ flag, value string }{{"--snapshot", *snapshot}, {"--name", *name}, {"--data-dir", *dataDir}, {"--peers", *peers}} {
		if f.value == "" {
			return usagef("%s: required", f.flag)
		}
	}
	members, err := backup.ParsePeers(*peers)
	if err != nil {
		return configUsage(err)
	}
	r, err := backup.Restore(backup.RestoreConfig{Snapshot: *snapshot, Name: *name, DataDir: *dataDir, Peers: members, Token: *token})
	if err != nil {
		return configUsage(err)
	}
	sum := r.Summary
	fmt.Fprintf(out, "restored member %s of %s into %s from %s (verified): revision %d, %d keys, bookings %s\n",
		*name, strings.Join(sum.Alliances, ", "), *dataDir, *snapshot, sum.Revision, sum.Keys, sum.BookingText())
	var others []string
	for _, m := range members {
		if m.Name != *name {
			others = append(others, m.Name)
		}
	}
	fmt.Fprintf(out, "  the new cluster: %s (initial cluster token %s)\n", *peers, r.Token)
	if len(others) > 0 {
		fmt.Fprintf(out, "  next: restore %s the same way (same --snapshot and --peers, each its own --name and --data-dir),\n", strings.Join(others, ", "))
		fmt.Fprintf(out, "  then start every airline server with its usual command line (--name, --data-dir and these --peers)\n")
	} else {
		fmt.Fprintf(out, "  next: start the airline server with its usual command line (--name %s --data-dir %s and these --peers)\n", *name, *dataDir)
	}
	return nil
}

// configUsage turns a restore's bad input into a usage error naming the flag.
func configUsage(err error) error {
	var ce *backup.ConfigError
	if errors.As(err, &ce) {
		return usagef("--%s: %s", ce.Field, ce.Problem)
	}
	return err
}
