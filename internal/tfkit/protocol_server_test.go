package tfkit

import (
	"context"
	"errors"
	"testing"
)

type valueKey struct{}

func TestReleasableContext(t *testing.T) {
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), valueKey{}, "v"))
	r := newReleasable(parent)
	if r.Value(valueKey{}) != "v" || r.Err() != nil || r.Done() != parent.Done() {
		t.Fatal("a releasable context forwards to its parent until released")
	}
	child, childCancel := context.WithCancel(r)
	defer childCancel()
	r.release()
	if r.Value(valueKey{}) != nil {
		t.Error("a released context still has its parent's values")
	}
	if r.Err() != nil {
		t.Error("Err is not nil before Done is closed")
	}
	cancel()
	<-child.Done() // the parent's cancellation still reaches contexts derived before the release
	if !errors.Is(r.Err(), context.Canceled) {
		t.Errorf("Err after the parent is done = %v", r.Err())
	}
}

// TestProtocolServer_workaroundTiedToFramework119 fails when go.mod moves terraform-plugin-framework past
// v1.19: check whether the framework still needs the workaround of protocol_server.go, then
// remove it or raise the version checked here.
func TestProtocolServer_workaroundTiedToFramework119(t *testing.T) {
	if v, past := frameworkPast119(t); past {
		t.Errorf("go.mod requires terraform-plugin-framework %s, past v1.19: check whether the workaround of protocol_server.go (releaseContexts: the framework v1.19 keeps every call's context, loggers included, until the provider stops; each call is run on a context released when it returns) is still needed (remove it if not), then update this test", v)
	}
}
