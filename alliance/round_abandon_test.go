package alliance

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

// An abandoned round's abort is retried until etcd applies it — an enter key left behind would
// hold the other participants in the round — and given up only when the caller's context ends.
func TestUntilAppliedRetriesAnIdempotentCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		unavailable := errors.New("etcd: no leader")
		calls := 0
		flaky := func(ctx context.Context) error {
			calls++
			if calls <= 4 {
				<-ctx.Done() // etcd does not answer: the call runs into its timeout
				return unavailable
			}
			return nil
		}
		start := time.Now()
		if err := untilApplied(context.Background(), 2*time.Second, flaky); err != nil || calls != 5 {
			t.Fatalf("untilApplied: %v after %d calls; want success at the fifth", err, calls)
		}
		// Four calls of 2 s each, and the waits after them: 100, 200, 400, 800 ms.
		if took := time.Since(start); took != 8*time.Second+1500*time.Millisecond {
			t.Errorf("succeeded after %v, want 9.5s", took)
		}

		calls = 0
		never := func(ctx context.Context) error { calls++; return unavailable }
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := untilApplied(ctx, 2*time.Second, never); !errors.Is(err, unavailable) || calls < 5 {
			t.Errorf("with a call that never succeeds: %v after %d calls; want its error once the context ended, after retrying", err, calls)
		}
	})
}
