package provider

import (
	"context"
	"runtime"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

type ballastKey struct{}

// heapAfter returns the live heap after calls validations of a role
// configuration through s, each on a context carrying 16 KiB (as
// terraform-plugin-go's loggers do), s kept alive to the end.
func heapAfter(t *testing.T, s tfprotov6.ProviderServer, calls int) uint64 {
	t.Helper()
	ctx := context.Background()
	schemas, err := s.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	typ := schemas.ResourceSchemas["postgresql_role"].ValueType()
	attrs := map[string]tftypes.Value{}
	for name, at := range typ.(tftypes.Object).AttributeTypes {
		attrs[name] = tftypes.NewValue(at, nil)
	}
	attrs["name"] = tftypes.NewValue(tftypes.String, "r")
	cfg, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, attrs))
	if err != nil {
		t.Fatal(err)
	}
	for range calls {
		callCtx, cancel := context.WithCancel(context.WithValue(ctx, ballastKey{}, make([]byte, 16<<10)))
		resp, err := s.ValidateResourceConfig(callCtx, &tfprotov6.ValidateResourceConfigRequest{TypeName: "postgresql_role", Config: &cfg})
		cancel() // as the gRPC server does when a call returns
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range resp.Diagnostics {
			if d.Severity == tfprotov6.DiagnosticSeverityError {
				t.Fatalf("validate: %s: %s", d.Summary, d.Detail)
			}
		}
	}
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	runtime.KeepAlive(s)
	return m.HeapAlloc
}

func TestProtocolServerReleasesCallContexts(t *testing.T) {
	const calls = 1000
	raw := providerserver.NewProtocol6(New("test")())()
	base := heapAfter(t, raw, 1)
	rawGrowth := int64(heapAfter(t, raw, calls)) - int64(base)

	wrapped := ProtocolServer("test")()
	base = heapAfter(t, wrapped, 1)
	growth := int64(heapAfter(t, wrapped, calls)) - int64(base)

	t.Logf("live heap growth over %d validations: framework server %d KiB, wrapped %d KiB", calls, rawGrowth>>10, growth>>10)
	// 16 MiB of ballast went through each server; the wrapped one keeps none of it
	if growth > 2<<20 {
		t.Errorf("the wrapped server kept %d KiB after %d calls: call contexts are retained", growth>>10, calls)
	}
}
