package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// roleSchemaV0 is the frozen schema of cyrilgdn/postgresql 1.26's postgresql_role (types only).
func roleSchemaV0() *schema.Schema {
	return &schema.Schema{
		Attributes: map[string]schema.Attribute{
			"id":                                  schema.StringAttribute{Optional: true, Computed: true},
			"name":                                schema.StringAttribute{Required: true},
			"superuser":                           schema.BoolAttribute{Optional: true},
			"create_database":                     schema.BoolAttribute{Optional: true},
			"create_role":                         schema.BoolAttribute{Optional: true},
			"inherit":                             schema.BoolAttribute{Optional: true},
			"login":                               schema.BoolAttribute{Optional: true},
			"replication":                         schema.BoolAttribute{Optional: true},
			"bypass_row_level_security":           schema.BoolAttribute{Optional: true},
			"connection_limit":                    schema.Int64Attribute{Optional: true},
			"encrypted_password":                  schema.BoolAttribute{Optional: true},
			"encrypted":                           schema.StringAttribute{Optional: true},
			"password":                            schema.StringAttribute{Optional: true, Sensitive: true},
			"password_wo":                         schema.StringAttribute{Optional: true, Sensitive: true},
			"password_wo_version":                 schema.StringAttribute{Optional: true},
			"roles":                               schema.SetAttribute{ElementType: types.StringType, Optional: true},
			"search_path":                         schema.ListAttribute{ElementType: types.StringType, Optional: true},
			"valid_until":                         schema.StringAttribute{Optional: true},
			"skip_drop_role":                      schema.BoolAttribute{Optional: true},
			"skip_reassign_owned":                 schema.BoolAttribute{Optional: true},
			"statement_timeout":                   schema.Int64Attribute{Optional: true},
			"idle_in_transaction_session_timeout": schema.Int64Attribute{Optional: true},
			"assume_role":                         schema.StringAttribute{Optional: true},
		},
	}
}

type roleModelV0 struct {
	ID                              types.String `tfsdk:"id"`
	Name                            types.String `tfsdk:"name"`
	Superuser                       types.Bool   `tfsdk:"superuser"`
	CreateDatabase                  types.Bool   `tfsdk:"create_database"`
	CreateRole                      types.Bool   `tfsdk:"create_role"`
	Inherit                         types.Bool   `tfsdk:"inherit"`
	Login                           types.Bool   `tfsdk:"login"`
	Replication                     types.Bool   `tfsdk:"replication"`
	BypassRLS                       types.Bool   `tfsdk:"bypass_row_level_security"`
	ConnectionLimit                 types.Int64  `tfsdk:"connection_limit"`
	EncryptedPassword               types.Bool   `tfsdk:"encrypted_password"`
	Encrypted                       types.String `tfsdk:"encrypted"`
	Password                        types.String `tfsdk:"password"`
	PasswordWO                      types.String `tfsdk:"password_wo"`
	PasswordWOVersion               types.String `tfsdk:"password_wo_version"`
	Roles                           types.Set    `tfsdk:"roles"`
	SearchPath                      types.List   `tfsdk:"search_path"`
	ValidUntil                      types.String `tfsdk:"valid_until"`
	SkipDropRole                    types.Bool   `tfsdk:"skip_drop_role"`
	SkipReassignOwned               types.Bool   `tfsdk:"skip_reassign_owned"`
	StatementTimeout                types.Int64  `tfsdk:"statement_timeout"`
	IdleInTransactionSessionTimeout types.Int64  `tfsdk:"idle_in_transaction_session_timeout"`
	AssumeRole                      types.String `tfsdk:"assume_role"`
}

// upgradeRoleStateV0 reads cyrilgdn's layout (both the after-create shape with
// null lists and the after-refresh shape with empty ones, and imported states).
func upgradeRoleStateV0(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	var old roleModelV0
	resp.Diagnostics.Append(req.State.Get(ctx, &old)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, upgradeRoleV0(old))...)
}

func upgradeRoleV0(old roleModelV0) roleModel {
	id := old.ID
	if id.IsNull() || id.ValueString() == "" {
		id = old.Name
	}
	searchPath := old.SearchPath
	if searchPath.IsNull() || searchPath.IsUnknown() {
		// cyrilgdn writes null for "not set" after create and [] after a refresh;
		// both mean the server default, which this provider records as [] so
		// that neither `search_path = []` nor leaving it out plans a change.
		searchPath = types.ListValueMust(types.StringType, []attr.Value{})
	}
	return roleModel{
		ID:                              id,
		OID:                             types.Int64Null(), // filled by the next refresh
		Name:                            old.Name,
		Superuser:                       boolOr(old.Superuser, false),
		CreateDatabase:                  boolOr(old.CreateDatabase, false),
		CreateRole:                      boolOr(old.CreateRole, false),
		Inherit:                         boolOr(old.Inherit, true),
		Login:                           boolOr(old.Login, false),
		Replication:                     boolOr(old.Replication, false),
		BypassRLS:                       boolOr(old.BypassRLS, false),
		ConnectionLimit:                 int64Or(old.ConnectionLimit, -1),
		EncryptedPassword:               boolOr(old.EncryptedPassword, true),
		Encrypted:                       old.Encrypted,
		Password:                        old.Password,
		PasswordWO:                      types.StringNull(), // write-only: never in state
		PasswordWOVersion:               old.PasswordWOVersion,
		Roles:                           old.Roles, // null = not managed; refresh reports the memberships
		SearchPath:                      searchPath,
		ValidUntil:                      stringOr(old.ValidUntil, "infinity"),
		SkipDropRole:                    boolOr(old.SkipDropRole, false),
		SkipReassignOwned:               boolOr(old.SkipReassignOwned, false),
		StatementTimeout:                int64Or(old.StatementTimeout, 0),
		IdleInTransactionSessionTimeout: int64Or(old.IdleInTransactionSessionTimeout, 0),
		AssumeRole:                      stringOr(old.AssumeRole, ""),
	}
}

func boolOr(v types.Bool, def bool) types.Bool {
	if v.IsNull() || v.IsUnknown() {
		return types.BoolValue(def)
	}
	return v
}

func int64Or(v types.Int64, def int64) types.Int64 {
	if v.IsNull() || v.IsUnknown() {
		return types.Int64Value(def)
	}
	return v
}

func stringOr(v types.String, def string) types.String {
	if v.IsNull() || v.IsUnknown() {
		return types.StringValue(def)
	}
	return v
}
