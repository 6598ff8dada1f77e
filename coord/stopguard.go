package coord

import (
	"context"
	"sync/atomic"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// stopGuard keeps a request that races its member's own stop from taking the whole process down.
// An etcd server that stops — removed from the cluster (a machine's graceful leave, or a removal
// by the others), or closed — closes its backend while its gRPC server still serves until Close
// stops it, and a read that reaches the closed backend panics in bbolt (etcd-io/etcd#7322,
// #17223). In a standalone etcd that ends a process that was stopping anyway; embedded, it ends
// the airline server: a leave that exits 2 instead of 0, a removed member that crashes instead of
// joining again. Once the server is stopping (etcd closes StoppingNotify before the backend), a
// request is refused as Unavailable (a client tries another member), and a panic in a request is
// turned into the same answer. A panic while the server is not stopping is not hidden.
type stopGuard struct {
	stopping atomic.Pointer[<-chan struct{}] // the server's StoppingNotify, once it started
}

// options are the gRPC server options that put the guard around every request.
func (g *stopGuard) options() []grpc.ServerOption {
	return []grpc.ServerOption{grpc.ChainUnaryInterceptor(g.unary), grpc.ChainStreamInterceptor(g.stream)}
}

// watch tells the guard the server's StoppingNotify channel.
func (g *stopGuard) watch(stopping <-chan struct{}) { g.stopping.Store(&stopping) }

func (g *stopGuard) isStopping() bool {
	ch := g.stopping.Load()
	if ch == nil {
		return false
	}
	select {
	case <-*ch:
		return true
	default:
		return false
	}
}

var errServerStopping = status.Error(codes.Unavailable, "etcdserver: server stopped")

func (g *stopGuard) unary(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
	if g.isStopping() {
		return nil, errServerStopping
	}
	defer g.recoverStopping(&err)
	return handler(ctx, req)
}

func (g *stopGuard) stream(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) (err error) {
	if g.isStopping() {
		return errServerStopping
	}
	defer g.recoverStopping(&err)
	return handler(srv, ss)
}

// recoverStopping, deferred around a request, turns a panic into errServerStopping when the
// server is stopping, and panics again otherwise.
func (g *stopGuard) recoverStopping(err *error) {
	r := recover()
	if r == nil {
		return
	}
	if !g.isStopping() {
		panic(r)
	}
	*err = status.Errorf(codes.Unavailable, "etcdserver: server stopped (a request raced the stop: %v)", r)
}
