package member

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// TestStopGuard: before its server stops, the guard passes requests and their panics through
// untouched; once the server is stopping, it refuses new requests as Unavailable and turns a
// request's panic (a read on the closed backend) into the same answer.
func TestStopGuard(t *testing.T) {
	g := &stopGuard{}
	ok := func(context.Context, any) (any, error) { return "answer", nil }
	crash := func(context.Context, any) (any, error) { panic("nil tx") }
	info := &grpc.UnaryServerInfo{FullMethod: "/etcdserverpb.KV/Range"}
	panics := func(h grpc.UnaryHandler) (v any) {
		defer func() { v = recover() }()
		_, _ = g.unary(context.Background(), nil, info, h)
		return nil
	}

	if resp, err := g.unary(context.Background(), nil, info, ok); err != nil || resp != "answer" {
		t.Errorf("before the server started: %v, %v", resp, err)
	}
	stopping := make(chan struct{})
	g.watch(stopping, nil)
	if resp, err := g.unary(context.Background(), nil, info, ok); err != nil || resp != "answer" {
		t.Errorf("while the server runs: %v, %v", resp, err)
	}
	if v := panics(crash); v != "nil tx" {
		t.Errorf("a panic while the server runs was not passed on: %v", v)
	}

	close(stopping)
	called := false
	_, err := g.unary(context.Background(), nil, info, func(context.Context, any) (any, error) { called = true; return nil, nil })
	if called || status.Code(err) != codes.Unavailable {
		t.Errorf("once stopping: handler called %v, %v; want it refused as Unavailable", called, err)
	}
	// A request that began before the stop and panics on the closed backend.
	// It is logged, with its method and stack.
	core, logs := observer.New(zap.WarnLevel)
	g2 := &stopGuard{}
	running := make(chan struct{})
	g2.watch(running, zap.New(core))
	_, err = g2.unary(context.Background(), nil, info, func(context.Context, any) (any, error) {
		close(running) // the server stops while the request runs
		panic("nil tx")
	})
	if status.Code(err) != codes.Unavailable {
		t.Errorf("a panic racing the stop: %v, want Unavailable", err)
	}
	if got := logs.FilterField(zap.String("method", info.FullMethod)).FilterField(zap.String("panic", "nil tx")).All(); len(got) != 1 || !strings.Contains(fmt.Sprint(got[0].ContextMap()["stack"]), "recoverStopping") {
		t.Errorf("the recovered panic was not logged with its method and stack: %v", logs.All())
	}

	// Streams alike.
	watchInfo := &grpc.StreamServerInfo{FullMethod: "/etcdserverpb.Watch/Watch"}
	g3 := &stopGuard{}
	streaming := make(chan struct{})
	g3.watch(streaming, nil)
	if err := g3.stream(nil, nil, watchInfo, func(any, grpc.ServerStream) error { return nil }); err != nil {
		t.Errorf("a stream while the server runs: %v", err)
	}
	if err := g3.stream(nil, nil, watchInfo, func(any, grpc.ServerStream) error { close(streaming); panic("nil tx") }); status.Code(err) != codes.Unavailable {
		t.Errorf("a stream's panic racing the stop: %v, want Unavailable", err)
	}
	if err := g3.stream(nil, nil, watchInfo, func(any, grpc.ServerStream) error { return nil }); status.Code(err) != codes.Unavailable {
		t.Errorf("a stream once stopping: %v, want Unavailable", err)
	}
}
