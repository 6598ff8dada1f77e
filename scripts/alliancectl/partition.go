package main

import (
	"context"
	"errors"
	"flag"
	"io"
)

// errNoPartition explains why partition and heal are not available.
var errNoPartition = errors.New("not available: cutting a machine's etcd peer traffic needs a proxy in front of " +
	"its peer port, and the airline server advertises its --peer-listen address as its etcd peer URL " +
	"(it has no --advertise-peer-url to point at a proxy), so the peers would bypass the proxy; " +
	"network namespaces would need root. `pause NAME` (SIGSTOP) is the nearest fault available; see scripts/README.md")

func cmdPartition(ctx context.Context, args []string, out io.Writer) error {
	fs, _ := newFlags("partition", "partition NAME / heal   (not available; see scripts/README.md)", out)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	return errNoPartition
}
