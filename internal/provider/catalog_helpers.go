package provider

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

// Helpers shared by the catalog area (functions, publications, subscriptions,
// replication slots, catalog data sources).

// planDatabase resolves the `database` argument of a database-scoped object at
// plan time: the configured value, else the value in state, else the
// provider's database. Known at plan whenever the configuration is.
func planDatabase(config, state types.String, client *pg.Client) types.String {
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

// databaseOf is the database an operation runs in ("" = the provider's).
func databaseOf(v types.String) string {
	if v.IsNull() || v.IsUnknown() {
		return ""
	}
	return v.ValueString()
}

// dataSourceClientFrom extracts the *pg.Client handed to data sources by Configure.
func dataSourceClientFrom(req datasource.ConfigureRequest, diags *diag.Diagnostics) *pg.Client {
	if req.ProviderData == nil {
		return nil
	}
	c, ok := req.ProviderData.(*pg.Client)
	if !ok {
		diags.AddError("Unexpected provider data", fmt.Sprintf("expected *pg.Client, got %T; this is a bug in the provider", req.ProviderData))
		return nil
	}
	return c
}

// splitDBName splits an import ID "<database>.<name>" at the first dot.
func splitDBName(id string) (db, name string, ok bool) {
	db, name, ok = strings.Cut(id, ".")
	if !ok || db == "" || name == "" {
		return "", "", false
	}
	return db, name, true
}

// slotNameValidator enforces PostgreSQL's rule for replication slot names.
func slotNameValidator() validator.String {
	return stringvalidator.RegexMatches(regexp.MustCompile(`^[a-z0-9_]+$`),
		"replication slot names may contain only lower-case letters, digits and underscores")
}

func knownString(v types.String) bool { return !v.IsNull() && !v.IsUnknown() }
