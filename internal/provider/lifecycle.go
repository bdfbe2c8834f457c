package provider

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// readBackFault, when set (by tests only), is called by finishCreate between
// recording a new object and reading it back; a non-nil error stands in for a
// read-back that failed (connection lost, timeout). what names the object.
var readBackFault atomic.Pointer[func(what string) error]

// finishCreate ends a Create whose object now exists in PostgreSQL. It first
// records in the state what the plan says of the object (computed values not
// known yet as null), then reads the object back into model and saves that.
//
// When the read-back fails, the recorded state stays and the error is
// returned: Terraform keeps the object, marked tainted, and replaces it on the
// next apply. Without the record the object would be an orphan: created but
// unknown to Terraform, so the next apply would fail with "already exists".
func finishCreate(ctx context.Context, resp *resource.CreateResponse, model any, what string, readBack func() (bool, diag.Diagnostics)) {
	if d := recordState(ctx, &resp.State, model); d.HasError() {
		resp.Diagnostics.Append(d...)
		return
	}
	var found bool
	var d diag.Diagnostics
	if fault := readBackFault.Load(); fault != nil {
		if err := (*fault)(what); err != nil {
			d.AddError("Could not read back", err.Error())
		}
	}
	if !d.HasError() {
		found, d = readBack()
	}
	if !d.HasError() && !found {
		d.AddError("Created object vanished", fmt.Sprintf("%s was created but cannot be read back: it was dropped by someone else meanwhile.", what))
	}
	if d.HasError() {
		resp.Diagnostics.Append(d...)
		resp.Diagnostics.AddError("Created, but not read back",
			fmt.Sprintf("%s was created, but reading it back failed (see the error above). It is recorded in the state as tainted, so Terraform does not lose track of it; the next apply replaces it.", what))
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, model)...)
}

// recordState sets the state to model with every unknown value made null, so
// that it can be saved as it is (a state holds no unknown values).
func recordState(ctx context.Context, state *tfsdk.State, model any) diag.Diagnostics {
	diags := state.Set(ctx, model)
	if diags.HasError() {
		return diags
	}
	raw, err := tftypes.Transform(state.Raw, func(_ *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if !v.IsKnown() {
			return tftypes.NewValue(v.Type(), nil), nil
		}
		return v, nil
	})
	if err != nil {
		diags.AddError("Could not record the new object", err.Error())
		return diags
	}
	state.Raw = raw
	return diags
}
