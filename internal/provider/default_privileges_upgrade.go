package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// defaultPrivilegesSchemaV0 is the frozen schema of cyrilgdn/postgresql 1.26's postgresql_default_privileges (types only).
func defaultPrivilegesSchemaV0() *schema.Schema {
	return &schema.Schema{
		Attributes: map[string]schema.Attribute{
			"id":                schema.StringAttribute{Optional: true, Computed: true},
			"role":              schema.StringAttribute{Required: true},
			"database":          schema.StringAttribute{Required: true},
			"owner":             schema.StringAttribute{Required: true},
			"schema":            schema.StringAttribute{Optional: true},
			"object_type":       schema.StringAttribute{Required: true},
			"privileges":        schema.SetAttribute{ElementType: types.StringType, Required: true},
			"with_grant_option": schema.BoolAttribute{Optional: true},
		},
	}
}

type defaultPrivilegesModelV0 struct {
	ID              types.String `tfsdk:"id"`
	Role            types.String `tfsdk:"role"`
	Database        types.String `tfsdk:"database"`
	Owner           types.String `tfsdk:"owner"`
	Schema          types.String `tfsdk:"schema"`
	ObjectType      types.String `tfsdk:"object_type"`
	Privileges      types.Set    `tfsdk:"privileges"`
	WithGrantOption types.Bool   `tfsdk:"with_grant_option"`
}

// upgradeDefaultPrivilegesStateV0 reads cyrilgdn's layout: `privileges = []`
// is stored as null there (-> empty set); the `<role>_<db>_<schema|noschema>_<owner>_<type>`
// id is replaced by the JSON import ID.
func upgradeDefaultPrivilegesStateV0(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	var old defaultPrivilegesModelV0
	resp.Diagnostics.Append(req.State.Get(ctx, &old)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, upgradeDefaultPrivilegesV0(old))...)
}

func upgradeDefaultPrivilegesV0(old defaultPrivilegesModelV0) defaultPrivilegesModel {
	m := defaultPrivilegesModel{
		Role: old.Role, Database: old.Database, Owner: old.Owner, Schema: old.Schema, ObjectType: old.ObjectType,
		Privileges: old.Privileges, WithGrantOption: boolOr(old.WithGrantOption, false),
	}
	if m.Schema.IsUnknown() || (!m.Schema.IsNull() && m.Schema.ValueString() == "") {
		m.Schema = types.StringNull()
	}
	if m.Privileges.IsNull() || m.Privileges.IsUnknown() {
		m.Privileges = stringSet(nil)
	}
	m.ID = types.StringValue(m.id())
	return m
}
