package provider

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

// The plan-time helper set shared by resources: defaults of database-scoped
// objects, unknown-aware checks, and value helpers of ModifyPlan. The
// attribute builders of their schemas are in name_attributes.go and internal/tfkit/schema_attributes.go.

// defaultedDatabase resolves the `database` argument of a database-scoped object at
// plan time: the configured value, else the value in state, else the
// provider's database. Known at plan whenever the configuration is.
func defaultedDatabase(config, state types.String, client *pg.Client) types.String {
	if !config.IsNull() {
		return config
	}
	if !state.IsNull() && !state.IsUnknown() && state.ValueString() != "" {
		return state
	}
	if client == nil {
		return types.StringUnknown()
	}
	return types.StringValue(client.DefaultDatabase())
}

func isKnown(v attr.Value) bool { return !v.IsNull() && !v.IsUnknown() }

// planOptions plans an Optional+Computed options map: unset means "no
// options", and null and {} mean the same, so the state's spelling of "none"
// is kept (cyrilgdn wrote null after apply and {} after a refresh).
func planOptions(config, state types.Map, plan *types.Map) {
	if !config.IsNull() {
		return // the plan is the configuration
	}
	if state.IsNull() || state.IsUnknown() || len(state.Elements()) == 0 {
		if state.IsUnknown() {
			*plan = types.MapNull(types.StringType)
		} else {
			*plan = state
		}
		return
	}
	*plan = types.MapNull(types.StringType)
}

// serverMajor returns the server's major version, 0 when unknown.
func serverMajor(ctx context.Context, c *pg.Client) int {
	if c == nil || c.Ready() != nil {
		return 0
	}
	caps, err := c.Capabilities(ctx)
	if err != nil {
		return 0
	}
	return caps.ServerVersionNum / 10000
}

// databaseOf is the database a database-scoped object lives in: its
// `database`, or the provider's database when that is unset (upgraded
// cyrilgdn states, imports). Without a client yet it is "", which the pg
// package also reads as the provider's database.
func databaseOf(c *pg.Client, db types.String) string {
	if !db.IsNull() && !db.IsUnknown() && db.ValueString() != "" {
		return db.ValueString()
	}
	if c == nil {
		return ""
	}
	return c.DefaultDatabase()
}

// joinedID joins known parts with dots, or is unknown when a part is.
func joinedID(parts ...types.String) types.String {
	s := make([]string, len(parts))
	for i, p := range parts {
		if p.IsUnknown() || p.IsNull() {
			return types.StringUnknown()
		}
		s[i] = p.ValueString()
	}
	return types.StringValue(strings.Join(s, "."))
}

// planDatabase plans the `database` of a database-scoped object (pick gives
// its address in a model): the configured one, else the state's on update,
// else the provider's (defaultedDatabase).
func planDatabase[M any](p *tfkit.Planned[M], client *pg.Client, pick func(*M) *types.String) {
	state := types.StringNull()
	if !p.Creating() {
		state = *pick(p.State)
	}
	*pick(&p.Plan) = defaultedDatabase(*pick(&p.Config), state, client)
}

// keepUnset keeps, on update, the state's value of an attribute (pick gives
// its address in a model) that the configuration leaves unset: it is not
// managed then (an owner), so it does not change.
func keepUnset[M any](p *tfkit.Planned[M], pick func(*M) *types.String) {
	if !p.Creating() && pick(&p.Config).IsNull() {
		*pick(&p.Plan) = *pick(p.State)
	}
}

// sameStringSets reports whether two known sets of strings hold the same
// elements once each is normalised with norm (which may map several spellings
// to one).
func sameStringSets(ctx context.Context, a, b types.Set, norm func(string) string) bool {
	if a.IsNull() || a.IsUnknown() || b.IsNull() || b.IsUnknown() {
		return false
	}
	var as, bs []string
	if a.ElementsAs(ctx, &as, false).HasError() || b.ElementsAs(ctx, &bs, false).HasError() {
		return false
	}
	normalised := func(in []string) []string {
		out := make([]string, 0, len(in))
		for _, v := range in {
			if n := norm(v); !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(normalised(as), normalised(bs))
}

// checkSettingAtPlan refuses at plan time a setting (postgresql_role_setting,
// postgresql_database_setting) that ALTER ROLE / ALTER DATABASE would refuse:
// an unknown parameter, one that cannot be set per role or database, one the
// provider's role may not set, or a value the parameter does not take (see
// pg.CheckSetting). what names the setting in the messages. It runs read-only
// queries, and only when the provider can connect and both values are known.
func checkSettingAtPlan(ctx context.Context, c *pg.Client, parameter, value types.String, what string, diags *diag.Diagnostics) {
	if c == nil || c.Ready() != nil || !isKnown(parameter) || !isKnown(value) {
		return
	}
	problem, err := c.CheckSetting(ctx, parameter.ValueString(), value.ValueString(), what)
	if err != nil {
		diags.AddWarning("Could not check the setting", fmt.Sprintf("Checking %s against pg_settings failed (the server checks it when it is applied): %s", what, err))
		return
	}
	if problem == nil {
		return
	}
	at := path.Root("parameter")
	if problem.Value {
		at = path.Root("value")
	}
	diags.AddAttributeError(at, problem.Summary, problem.Detail)
}

// privateGranteeOID and privateOwnerOID are the private-state keys of the
// OIDs of a grant's grantee and of default privileges' owner, recorded at
// every read: a role renamed outside Terraform is followed by its OID (a
// rename is not a drop), so a destroy that runs before the role's rename
// back revokes from it instead of finding no role of the old name.
const (
	privateGranteeOID = "grantee_oid"
	// privateRoleOID: the role of a postgresql_role_setting or
	// postgresql_database_setting, the member of a postgresql_grant_role
	privateRoleOID = "role_oid"
	// privateGrantRoleOID: the group of a postgresql_grant_role
	privateGrantRoleOID = "grant_role_oid"
	privateOwnerOID     = "owner_oid"
	// privateObjectOID: the object of a postgresql_comment
	privateObjectOID = "object_oid"
)

// privateOID is the OID recorded under key in the private state (0 when
// there is none).
func privateOID(ctx context.Context, c *tfkit.Call, key string) uint32 {
	if c == nil {
		return 0
	}
	n, err := strconv.ParseUint(string(c.PrivateKey(ctx, key)), 10, 32)
	if err != nil {
		return 0
	}
	return uint32(n)
}

// savePrivateOID records oid under key in the private state (nothing for 0).
func savePrivateOID(ctx context.Context, c *tfkit.Call, key string, oid uint32) diag.Diagnostics {
	if c == nil || oid == 0 {
		return nil
	}
	return c.SetPrivateKey(ctx, key, []byte(strconv.FormatUint(uint64(oid), 10)))
}
