package provider

import (
	"context"

	dsschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

// Helpers shared by the catalog list data sources.

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
