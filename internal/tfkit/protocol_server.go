package tfkit

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// ReleaseContexts wraps the plugin framework's protocol 6 server so that the
// request contexts of its per-object calls are released when the call
// returns.
//
// The framework (v1.19) keeps a cancel function for the context of every call
// until Terraform stops the provider (proto6server's registerContext), so each
// call's context, with the loggers terraform-plugin-go puts in it (~13 KiB),
// stays reachable for the whole command: a plan of 2,000 resources (four
// calls each) kept ~100 MiB live and peaked at ~250 MiB RSS. Each wrapped call
// here runs on a context that forwards to the call's own until the call
// returns and forgets it then, so what the framework keeps is a few hundred
// bytes per call. Streaming calls (list resources, actions, state stores) are
// passed through: their contexts outlive the call.
func ReleaseContexts(s tfprotov6.ProviderServer) tfprotov6.ProviderServer {
	full, ok := s.(fullServer)
	if !ok {
		return s
	}
	return releasingServer{full}
}

// fullServer is every protocol 6 interface the framework's server implements.
type fullServer interface {
	tfprotov6.ProviderServer
	tfprotov6.ListResourceServer
	tfprotov6.ActionServer
	tfprotov6.StateStoreServer
}

type releasingServer struct{ fullServer }

// releasable is a context that forwards to the context of one call until
// release, and afterwards keeps only its Done channel: values are gone, and
// Err says Canceled once that channel is closed (the server cancels a call's
// context when the call returns).
type releasable struct {
	done   <-chan struct{}
	parent atomic.Pointer[context.Context]
}

func newReleasable(ctx context.Context) *releasable {
	r := &releasable{done: ctx.Done()}
	r.parent.Store(&ctx)
	return r
}

func (r *releasable) release() { r.parent.Store(nil) }

func (r *releasable) Deadline() (time.Time, bool) {
	if p := r.parent.Load(); p != nil {
		return (*p).Deadline()
	}
	return time.Time{}, false
}

func (r *releasable) Done() <-chan struct{} { return r.done }

func (r *releasable) Err() error {
	if p := r.parent.Load(); p != nil {
		return (*p).Err()
	}
	select {
	case <-r.done:
		return context.Canceled
	default:
		return nil
	}
}

func (r *releasable) Value(key any) any {
	if p := r.parent.Load(); p != nil {
		return (*p).Value(key)
	}
	return nil
}

// released runs one call on a releasable view of ctx.
func released[Req, Resp any](ctx context.Context, req Req, call func(context.Context, Req) (Resp, error)) (Resp, error) {
	r := newReleasable(ctx)
	defer r.release()
	return call(r, req)
}

func (s releasingServer) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return released(ctx, req, s.fullServer.ValidateResourceConfig)
}

func (s releasingServer) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	return released(ctx, req, s.fullServer.UpgradeResourceState)
}

func (s releasingServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return released(ctx, req, s.fullServer.ReadResource)
}

func (s releasingServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return released(ctx, req, s.fullServer.PlanResourceChange)
}

func (s releasingServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	return released(ctx, req, s.fullServer.ApplyResourceChange)
}

func (s releasingServer) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return released(ctx, req, s.fullServer.ImportResourceState)
}

func (s releasingServer) MoveResourceState(ctx context.Context, req *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	return released(ctx, req, s.fullServer.MoveResourceState)
}

func (s releasingServer) UpgradeResourceIdentity(ctx context.Context, req *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	return released(ctx, req, s.fullServer.UpgradeResourceIdentity)
}

func (s releasingServer) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return released(ctx, req, s.fullServer.ValidateDataResourceConfig)
}

func (s releasingServer) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	return released(ctx, req, s.fullServer.ReadDataSource)
}

func (s releasingServer) CallFunction(ctx context.Context, req *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	return released(ctx, req, s.fullServer.CallFunction)
}
