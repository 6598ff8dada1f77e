package member

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync/atomic"

	"go.uber.org/zap"

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
// turned into the same answer, and logged with its stack (a real defect met while stopping should
// still show). A panic while the server is not stopping is not hidden. The guard covers what runs
// in a request's own goroutine; etcd's background work (raft, lease expiry, a watch's sender) is
// not a request and is not guarded.
type stopGuard struct {
	stopping atomic.Pointer[<-chan struct{}] // the server's StoppingNotify, once it started
	log      atomic.Pointer[zap.Logger]      // where a recovered panic is told, once the server started
}

// options are the gRPC server options that put the guard around every request.
func (g *stopGuard) options() []grpc.ServerOption {
	return []grpc.ServerOption{grpc.ChainUnaryInterceptor(g.unary), grpc.ChainStreamInterceptor(g.stream)}
}

// watch tells the guard the server's StoppingNotify channel and its logger (nil: none).
func (g *stopGuard) watch(stopping <-chan struct{}, log *zap.Logger) {
	g.stopping.Store(&stopping)
	g.log.Store(log)
}

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

func (g *stopGuard) unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
	if g.isStopping() {
		return nil, errServerStopping
	}
	defer g.recoverStopping(info.FullMethod, &err)
	return handler(ctx, req)
}

func (g *stopGuard) stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) (err error) {
	if g.isStopping() {
		return errServerStopping
	}
	defer g.recoverStopping(info.FullMethod, &err)
	return handler(srv, ss)
}

// recoverStopping, deferred around a request of method, turns a panic into an Unavailable error
// when the server is stopping (and logs it), and panics again otherwise.
func (g *stopGuard) recoverStopping(method string, err *error) {
	r := recover()
	if r == nil {
		return
	}
	if !g.isStopping() {
		panic(r)
	}
	if log := g.log.Load(); log != nil {
		log.Warn("a request raced the member's stop and panicked; answered Unavailable",
			zap.String("method", method), zap.String("panic", fmt.Sprint(r)), zap.ByteString("stack", debug.Stack()))
	}
	*err = status.Errorf(codes.Unavailable, "etcdserver: server stopped (a request raced the stop: %v)", r)
}
