package coord_test

import (
	"fmt"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"

	"flightalliance/coord"
)

// The benchmarks run on one 3-member embedded cluster (fsync off, as in the
// tests) and compare coord with the raw etcd client doing the same work,
// one operation at a time (latency-bound, as the alliance uses them).
// Run: go test -run '^$' -bench . ./coord/

func BenchmarkCreateSetGet(b *testing.B) {
	c := newCluster(b, 3)
	cli := c.members[0].Client()
	ctx := b.Context()
	run := 0 // the framework may call a sub-benchmark more than once
	b.Run("coord", func(b *testing.B) {
		run++
		tree := coord.NewTree(cli)
		i := 0
		for b.Loop() {
			p := fmt.Sprintf("/bench/coord/%d/%d", run, i)
			i++
			if _, err := tree.Create(ctx, p, []byte("v")); err != nil {
				b.Fatal(err)
			}
			if _, err := tree.Set(ctx, p, []byte("w")); err != nil {
				b.Fatal(err)
			}
			if _, _, err := tree.Get(ctx, p); err != nil {
				b.Fatal(err)
			}
		}
		reportOps(b, 3)
	})
	b.Run("raw", func(b *testing.B) {
		run++
		i := 0
		for b.Loop() {
			k := fmt.Sprintf("/bench/raw/%d/%d", run, i)
			i++
			resp, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(k), "=", 0)).
				Then(clientv3.OpPut(k, "v")).Commit()
			if err != nil || !resp.Succeeded {
				b.Fatal(err)
			}
			if _, err := cli.Put(ctx, k, "w"); err != nil {
				b.Fatal(err)
			}
			if _, err := cli.Get(ctx, k); err != nil {
				b.Fatal(err)
			}
		}
		reportOps(b, 3)
	})
}

func BenchmarkLockUnlock(b *testing.B) {
	c := newCluster(b, 3)
	cli := c.members[0].Client()
	ctx := b.Context()
	b.Run("coord", func(b *testing.B) {
		s := newSession(b, cli, 10*time.Second)
		m := coord.NewMutex(coord.NewTree(cli), s, "/bench/lock/coord")
		for b.Loop() {
			g, err := m.Lock(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if err := g.Unlock(ctx); err != nil {
				b.Fatal(err)
			}
		}
		reportOps(b, 1)
	})
	b.Run("raw", func(b *testing.B) {
		s, err := concurrency.NewSession(cli, concurrency.WithTTL(10))
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		m := concurrency.NewMutex(s, "/bench/lock/raw")
		for b.Loop() {
			if err := m.Lock(ctx); err != nil {
				b.Fatal(err)
			}
			if err := m.Unlock(ctx); err != nil {
				b.Fatal(err)
			}
		}
		reportOps(b, 1)
	})
}

// reportOps reports iterations (of perIter operations) per second.
func reportOps(b *testing.B, perIter int) {
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(float64(b.N)/s, "iter/s")
		b.ReportMetric(float64(b.N*perIter)/s, "ops/s")
	}
}
