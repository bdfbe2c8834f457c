package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// upgradeRoleV0 reads cyrilgdn/postgresql's postgresql_role, whose layout is
// roleModel's less the oid (both the after-create shape with null lists and
// the after-refresh shape with empty ones, and imported states). Releases
// before 1.26 lack password_wo and password_wo_version (read as null), and
// write password = "" for a role without a password (1.26: null), which is
// null here too: Terraform manages no password, and a configuration without
// one plans no change. 1.26 writes "" only for a configured `password = ""`
// (a module's variable defaulting to ""), which stays "": that configuration
// plans no change either. A 1.26 state is one that holds the
// password_wo_version key (null or not; before 1.26 it is missing). Releases
// before 1.17 lack assume_role (""). A password verifier older releases read
// at import (or at a refresh, as superuser, of a role whose password
// Terraform did not set) stays: the plan compares the configured password
// with it (roleResource.PlanChange).
func upgradeRoleV0(m roleModel, present func(attr string) bool) roleModel {
	if m.ID.IsNull() || m.ID.ValueString() == "" {
		m.ID = m.Name
	}
	if m.SearchPath.IsNull() || m.SearchPath.IsUnknown() {
		// cyrilgdn writes null for "not set" after create and [] after a refresh;
		// both mean the server default, which this provider records as [] so
		// that neither `search_path = []` nor leaving it out plans a change.
		m.SearchPath = types.ListValueMust(types.StringType, []attr.Value{})
	}
	m.OID = types.Int64Null() // filled by the next refresh
	m.Superuser = boolOr(m.Superuser, false)
	m.CreateDatabase = boolOr(m.CreateDatabase, false)
	m.CreateRole = boolOr(m.CreateRole, false)
	m.Inherit = boolOr(m.Inherit, true)
	m.Login = boolOr(m.Login, false)
	m.Replication = boolOr(m.Replication, false)
	m.BypassRLS = boolOr(m.BypassRLS, false)
	m.ConnectionLimit = int64Or(m.ConnectionLimit, -1)
	m.EncryptedPassword = boolOr(m.EncryptedPassword, true)
	m.PasswordWO = types.StringNull() // write-only: never in state
	// cyrilgdn never compared passwords with the server: a password changed
	// outside Terraform stays (and is now reported)
	m.PasswordDrift = types.StringValue(passwordDriftReport)
	if m.Password.IsUnknown() || m.Password.ValueString() == "" && !present("password_wo_version") {
		m.Password = types.StringNull()
	}
	// Roles stays as it is: null = not managed; refresh reports the memberships
	m.ValidUntil = stringOr(m.ValidUntil, "infinity")
	m.SkipDropRole = boolOr(m.SkipDropRole, false)
	m.SkipReassignOwned = boolOr(m.SkipReassignOwned, false)
	m.StatementTimeout = int64Or(m.StatementTimeout, 0)
	m.IdleInTransactionSessionTimeout = int64Or(m.IdleInTransactionSessionTimeout, 0)
	m.AssumeRole = stringOr(m.AssumeRole, "")
	return m
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
