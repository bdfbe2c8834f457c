package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// roleModelV0 is the state layout of cyrilgdn/postgresql 1.26's postgresql_role.
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

// upgradeRoleV0 reads cyrilgdn's layout (both the after-create shape with
// null lists and the after-refresh shape with empty ones, and imported states).
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
