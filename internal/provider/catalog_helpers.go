package provider

import (
	"context"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	dsschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

// Helpers shared by the catalog area (functions, publications, subscriptions,
// replication slots, catalog data sources).

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

// splitDatabaseName splits an import ID "<database>.<name>" at the first dot.
func splitDatabaseName(id string) (db, name string, ok bool) {
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

func isKnown(v types.String) bool { return !v.IsNull() && !v.IsUnknown() }

// nameFilterAttributes are cyrilgdn's pattern arguments of the catalog list
// data sources; what names them is `subject` (e.g. "table names").
func nameFilterAttributes(subject string) map[string]dsschema.Attribute {
	return map[string]dsschema.Attribute{
		"like_any_patterns": dsschema.ListAttribute{
			ElementType: types.StringType, Optional: true,
			MarkdownDescription: "Keep " + subject + " matching at least one of these `LIKE` patterns (`%` any string, `_` one character, `\\` escapes). " +
				"Patterns are sent as query parameters, never spliced into SQL.",
		},
		"like_all_patterns": dsschema.ListAttribute{
			ElementType: types.StringType, Optional: true,
			MarkdownDescription: "Keep " + subject + " matching every one of these `LIKE` patterns.",
		},
		"not_like_all_patterns": dsschema.ListAttribute{
			ElementType: types.StringType, Optional: true,
			MarkdownDescription: "Drop " + subject + " matching any of these `LIKE` patterns (`NOT LIKE ALL`).",
		},
		"regex_pattern": dsschema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "Keep " + subject + " matching this POSIX regular expression (`~`).",
		},
	}
}

type nameFilterModel struct {
	LikeAny    types.List   `tfsdk:"like_any_patterns"`
	LikeAll    types.List   `tfsdk:"like_all_patterns"`
	NotLikeAll types.List   `tfsdk:"not_like_all_patterns"`
	Regex      types.String `tfsdk:"regex_pattern"`
}

func (f nameFilterModel) filter(ctx context.Context, diags *diag.Diagnostics) pg.NameFilter {
	list := func(l types.List) []string {
		var out []string
		if !l.IsNull() && !l.IsUnknown() {
			diags.Append(l.ElementsAs(ctx, &out, false)...)
		}
		return out
	}
	return pg.NameFilter{LikeAny: list(f.LikeAny), LikeAll: list(f.LikeAll), NotLikeAll: list(f.NotLikeAll), Regex: f.Regex.ValueString()}
}

func listStrings(ctx context.Context, l types.List, diags *diag.Diagnostics) []string {
	var out []string
	if !l.IsNull() && !l.IsUnknown() {
		diags.Append(l.ElementsAs(ctx, &out, false)...)
	}
	return out
}

// dataSourceDatabase resolves the database argument of a data source.
func dataSourceDatabase(v types.String, client *pg.Client) types.String {
	if isKnown(v) && v.ValueString() != "" {
		return v
	}
	return types.StringValue(client.DefaultDatabase())
}

func mergeAttributes(maps ...map[string]dsschema.Attribute) map[string]dsschema.Attribute {
	out := map[string]dsschema.Attribute{}
	for _, m := range maps {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}
