package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// grantSchemaV0 is the frozen schema of cyrilgdn/postgresql 1.26's postgresql_grant (types only).
func grantSchemaV0() *schema.Schema {
	return &schema.Schema{
		Attributes: map[string]schema.Attribute{
			"id":                schema.StringAttribute{Optional: true, Computed: true},
			"role":              schema.StringAttribute{Required: true},
			"database":          schema.StringAttribute{Required: true},
			"schema":            schema.StringAttribute{Optional: true},
			"object_type":       schema.StringAttribute{Required: true},
			"objects":           schema.SetAttribute{ElementType: types.StringType, Optional: true},
			"columns":           schema.SetAttribute{ElementType: types.StringType, Optional: true},
			"privileges":        schema.SetAttribute{ElementType: types.StringType, Required: true},
			"with_grant_option": schema.BoolAttribute{Optional: true},
		},
	}
}

type grantModelV0 struct {
	ID              types.String `tfsdk:"id"`
	Role            types.String `tfsdk:"role"`
	Database        types.String `tfsdk:"database"`
	Schema          types.String `tfsdk:"schema"`
	ObjectType      types.String `tfsdk:"object_type"`
	Objects         types.Set    `tfsdk:"objects"`
	Columns         types.Set    `tfsdk:"columns"`
	Privileges      types.Set    `tfsdk:"privileges"`
	WithGrantOption types.Bool   `tfsdk:"with_grant_option"`
}

// upgradeGrantStateV0 reads cyrilgdn's layout: `privileges = []` is stored
// there as null (-> empty set), null objects/columns become [] (unset and []
// mean the same, "all"/"none", and the state always records [] so that either
// spelling in the configuration plans no change), and the ambiguous
// `<role>_<db>_<schema>_<type>...` id is replaced by the JSON import ID.
func upgradeGrantStateV0(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	var old grantModelV0
	resp.Diagnostics.Append(req.State.Get(ctx, &old)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, upgradeGrantV0(ctx, old))...)
}

func upgradeGrantV0(ctx context.Context, old grantModelV0) grantModel {
	m := grantModel{
		Role:            old.Role,
		Database:        old.Database,
		Schema:          old.Schema,
		ObjectType:      old.ObjectType,
		Objects:         emptyIfNull(old.Objects),
		Columns:         emptyIfNull(old.Columns),
		Privileges:      old.Privileges,
		WithGrantOption: boolOr(old.WithGrantOption, false),
	}
	if m.Schema.IsUnknown() || (!m.Schema.IsNull() && m.Schema.ValueString() == "") {
		m.Schema = types.StringNull()
	}
	if m.Privileges.IsNull() || m.Privileges.IsUnknown() {
		m.Privileges = stringSet(nil)
	}
	m.ID = types.StringValue(m.id(ctx))
	return m
}
