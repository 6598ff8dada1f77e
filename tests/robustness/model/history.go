package model

import (
	"cmp"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
)

// History records operations from concurrent clients, on one monotonic clock.
type History struct {
	mu    sync.Mutex
	start time.Time
	ops   []porcupine.Operation
}

// NewHistory starts a history; its clock starts now.
func NewHistory() *History { return &History{start: time.Now()} }

// Now is the history's clock: nanoseconds since it started, monotonic.
func (h *History) Now() int64 { return int64(time.Since(h.start)) }

// Add records one operation; an unknown outcome returns at math.MaxInt64.
func (h *History) Add(client int, in Input, call int64, out Output, ret int64) {
	if out.Outcome == Unknown {
		ret = math.MaxInt64
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ops = append(h.ops, porcupine.Operation{ClientId: client, Input: in, Call: call, Output: out, Return: ret})
}

// Operations is a copy of the operations recorded so far.
func (h *History) Operations() []porcupine.Operation {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.ops)
}

// Check checks the history with porcupine. When it is not linearizable (or the check timed
// out), the visualization, with the annotations (the faults), is written to dir (where the test
// keeps its logs) and the test fails naming it.
func Check(t testing.TB, ops []porcupine.Operation, timeout time.Duration, dir string, notes ...porcupine.Annotation) porcupine.CheckResult {
	t.Helper()
	res, info := porcupine.CheckOperationsVerbose(Seats, ops, timeout)
	if res == porcupine.Ok {
		return res
	}
	info.AddAnnotations(notes)
	path := filepath.Join(dir, "bookings-linearizability.html")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Errorf("keeping the visualization: %v", err)
	} else if err := porcupine.VisualizePath(Seats, info, path); err != nil {
		t.Errorf("writing the visualization: %v", err)
	}
	t.Errorf("booking history of %d operations is %s (not linearizable, or not decided in %v); visualization: %s",
		len(ops), res, timeout, path)
	return res
}

// Counts summarizes a history per kind and outcome, for the test log.
func Counts(ops []porcupine.Operation) string {
	count := map[string]int{}
	for _, op := range ops {
		out := op.Output.(Output)
		name := op.Input.(Input).Kind.String()
		switch out.Outcome {
		case OK:
			name += " ok"
		case Full:
			name += " 409"
		case Missing:
			name += " 404"
		case Unknown:
			name += " unknown"
		}
		count[name]++
	}
	keys := make([]string, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, cmp.Compare)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, count[k]))
	}
	return strings.Join(parts, ", ")
}
