package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// extensionSchemaV0 is the frozen schema of cyrilgdn/postgresql 1.26's postgresql_extension (types only).
func extensionSchemaV0() *schema.Schema {
	return &schema.Schema{
		Attributes: map[string]schema.Attribute{
			"id":             schema.StringAttribute{Optional: true, Computed: true},
			"name":           schema.StringAttribute{Required: true},
			"database":       schema.StringAttribute{Optional: true, Computed: true},
			"schema":         schema.StringAttribute{Optional: true, Computed: true},
			"version":        schema.StringAttribute{Optional: true, Computed: true},
			"create_cascade": schema.BoolAttribute{Optional: true},
			"drop_cascade":   schema.BoolAttribute{Optional: true},
		},
	}
}

type extensionModelV0 struct {
	ID            types.String `tfsdk:"id"`
	Name          types.String `tfsdk:"name"`
	Database      types.String `tfsdk:"database"`
	Schema        types.String `tfsdk:"schema"`
	Version       types.String `tfsdk:"version"`
	CreateCascade types.Bool   `tfsdk:"create_cascade"`
	DropCascade   types.Bool   `tfsdk:"drop_cascade"`
}

// upgradeExtensionStateV0 reads cyrilgdn's layout (after an import
// create_cascade and drop_cascade are null: the defaults). The OID is filled
// by the next refresh.
func upgradeExtensionStateV0(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	var old extensionModelV0
	resp.Diagnostics.Append(req.State.Get(ctx, &old)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, upgradeExtensionV0(old))...)
}

func upgradeExtensionV0(old extensionModelV0) extensionModel {
	known := func(v types.String) types.String {
		if v.IsUnknown() {
			return types.StringNull()
		}
		return v
	}
	id := old.ID
	if id.IsNull() || id.ValueString() == "" {
		id = types.StringValue(old.Database.ValueString() + "." + old.Name.ValueString())
	}
	return extensionModel{
		ID:            id,
		OID:           types.Int64Null(),
		Name:          old.Name,
		Database:      known(old.Database),
		DatabaseOID:   types.Int64Null(), // filled by the next refresh
		Schema:        known(old.Schema),
		Version:       known(old.Version),
		CreateCascade: boolOr(old.CreateCascade, false),
		DropCascade:   boolOr(old.DropCascade, false),
	}
}
