package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

// The list resources of the kinds added for adopting whole clusters (the
// first ones are in list_resources.go, postgresql_grant's in list_grant.go).

// notListable are the resource types with no list resource, and why (the
// adoption guide says the same; TestListResources_coverage keeps the two
// lists whole).
var notListable = map[string]string{
	"postgresql_object_owner": "a pure assertion: the owner of an object is already the object's own resource's `owner` " +
		"(a database, schema, function, publication, server, event trigger), so listing ownership too would put one fact in two resources; " +
		"import it by ID where you want the assertion on an object that has no resource of its own",
	"postgresql_grant_additive": "the additive form of a grant: a listing reads a grantee's whole access control list, which " +
		"is what the authoritative `postgresql_grant` (listed) says; listing both would put one fact in two resources. " +
		"Switch a generated `postgresql_grant` to it with a `removed` and an `import` block",
	"postgresql_default_privileges_additive": "the additive form of default privileges: a listing reads a whole entry, which " +
		"is what the authoritative `postgresql_default_privileges` (listed) says; listing both would put one fact in two resources. " +
		"Switch a generated `postgresql_default_privileges` to it with a `removed` and an `import` block",
}

func schemaFilter(what string) listschema.StringAttribute {
	return listschema.StringAttribute{Optional: true, MarkdownDescription: "Keep the " + what + " of this schema (every schema when not set).",
		Validators: []validator.String{validators.Name()}}
}

// adoptListResources are the list resources of list_objects.go and
// list_grant.go.
func adoptListResources() []func() list.ListResource {
	dbDotName := func(m listed) string { return m.s("database") + "." + m.s("name") }
	described := func(m listed) string {
		what := m.s("object_type") + " "
		if m.s("schema") != "" {
			what += m.s("schema") + "."
		}
		what += m.s("object_name")
		if m.s("column_name") != "" {
			what += "." + m.s("column_name")
		}
		return what
	}
	describedNames := func(db string, o pg.DescribedObject, nameAttr string) listed {
		n := listed{"database": db, "object_type": o.ObjectType, nameAttr: o.Name}
		if o.Schema != "" {
			n["schema"] = o.Schema
		}
		if o.Column != "" {
			n["column_name"] = o.Column
		}
		if o.Provider != "" {
			n["label_provider"] = o.Provider
		}
		return n
	}
	return []func() list.ListResource{
		func() list.ListResource {
			return &catalogList[commentModel]{kind: "comment", newResource: NewCommentResource, database: true, clusterWide: "the comments of roles and tablespaces",
				nameFilter: true, subject: "the names of the commented objects (of the table, for a column)",
				systemObjects: "the comments of system objects (made by `initdb`, in `pg_*` schemas or `information_schema`, or by an extension's script) and an extension's comment when it is its control file's",
				about: "One result per comment on an object `postgresql_comment` manages (relations, columns, types, domains, routines, schemas, the database, " +
					"extensions, event triggers, publications, subscriptions, languages, and with `cluster_wide` roles and tablespaces). " +
					"A routine is named by its name alone, as the resource names it: the comment of an overloaded routine is not listed, nor are the comments of other kinds of object (constraints, triggers, ...).",
				filters: map[string]listschema.StringAttribute{
					"object_type": {Optional: true, MarkdownDescription: "Keep the comments on objects of this type (`COMMENT ON`'s spelling, lower case, e.g. `table`, `column`, `function`).",
						Validators: []validator.String{stringvalidator.OneOf(pg.CommentObjectTypes...)}},
					"schema": schemaFilter("comments on objects"),
				},
				display: func(m listed) string { return m.s("database") + ": comment on " + described(m) },
				list: func(ctx context.Context, c *pg.Client, a listArgs) ([]listed, error) {
					os, err := c.ListComments(ctx, a.db, pg.DescribedObjectFilter{Names: a.filter, ObjectType: a.str["object_type"], Schema: a.str["schema"],
						ClusterWide: a.clusterWide, IncludeSystem: a.includeSystem})
					out := make([]listed, len(os))
					for i, o := range os {
						out[i] = describedNames(a.db, o, "object_name")
					}
					return out, err
				}}
		},
		func() list.ListResource {
			return &catalogList[eventTriggerModel]{kind: "event_trigger", newResource: NewEventTriggerResource, nameFilter: true, database: true,
				systemObjects: "the event triggers of extensions", display: dbDotName,
				list: func(ctx context.Context, c *pg.Client, a listArgs) ([]listed, error) {
					n, err := c.ListEventTriggerNames(ctx, a.db, a.filter, a.includeSystem)
					return dbAndName(a.db, n), err
				}}
		},
		func() list.ListResource { return newGrantList() },
		func() list.ListResource {
			return &catalogList[physicalReplicationSlotModel]{kind: "physical_replication_slot", newResource: NewPhysicalReplicationSlotResource, nameFilter: true,
				about:   "Permanent physical slots only: temporary slots belong to the session that made them.",
				display: func(m listed) string { return m.s("name") },
				list: func(ctx context.Context, c *pg.Client, a listArgs) ([]listed, error) {
					n, err := c.ListReplicationSlots(ctx, "", true, a.filter, true)
					return oneName("name", n), err
				}}
		},
		func() list.ListResource {
			return &catalogList[policyModel]{kind: "policy", newResource: NewPolicyResource, nameFilter: true, database: true,
				about: "One result per row-level security policy; whether the table enforces them is `postgresql_table_rls`'s.",
				filters: map[string]listschema.StringAttribute{
					"schema": schemaFilter("policies of tables"),
					"table":  {Optional: true, MarkdownDescription: "Keep the policies of tables of this name.", Validators: []validator.String{validators.Name()}},
				},
				display: func(m listed) string {
					return fmt.Sprintf("%s.%s.%s: %s", m.s("database"), m.s("schema"), m.s("table"), m.s("name"))
				},
				list: func(ctx context.Context, c *pg.Client, a listArgs) ([]listed, error) {
					ps, err := c.ListPolicies(ctx, a.db, a.str["schema"], a.str["table"], a.filter)
					out := make([]listed, len(ps))
					for i, p := range ps {
						out[i] = listed{"database": a.db, "schema": p.Schema, "table": p.Table, "name": p.Name}
					}
					return out, err
				}}
		},
		func() list.ListResource {
			return &catalogList[replicationSlotModel]{kind: "replication_slot", newResource: NewReplicationSlotResource, nameFilter: true, database: true,
				systemObjects: "the slots of subscriptions: those a subscription of this cluster names (the subscription owns them) and those made for table synchronisation (`pg_*`)",
				about:         "The permanent logical slots of `database`: temporary slots belong to the session that made them.",
				display:       dbDotName,
				list: func(ctx context.Context, c *pg.Client, a listArgs) ([]listed, error) {
					n, err := c.ListReplicationSlots(ctx, a.db, false, a.filter, a.includeSystem)
					return dbAndName(a.db, n), err
				}}
		},
		func() list.ListResource {
			return &catalogList[roleSettingModel]{kind: "role_setting", newResource: NewRoleSettingResource,
				systemObjects: "the settings of reserved roles (`pg_*`, the roles of managed services)",
				about: "One result per parameter a role gets in every database (`ALTER ROLE ... SET`). A role's settings in one database are `postgresql_database_setting`'s " +
					"(one fact, one owner), and its `" + strings.Join(roleManagedParameters[:3], "`, `") + "` and `role` are `postgresql_role`'s arguments: both are left out.",
				filters: map[string]listschema.StringAttribute{
					"role":       {Optional: true, MarkdownDescription: "Keep the settings of roles matching this `LIKE` pattern (sent as a query parameter)."},
					"role_regex": {Optional: true, MarkdownDescription: "Keep the settings of roles matching this POSIX regular expression."},
				},
				flags: map[string]listschema.BoolAttribute{
					"include_role_arguments": {Optional: true, MarkdownDescription: "Also list `" + strings.Join(roleManagedParameters, "`, `") + "`, which `postgresql_role` manages " +
						"(its `search_path`, `statement_timeout`, `idle_in_transaction_session_timeout` and `assume_role`): for roles you do not adopt as `postgresql_role`."},
				},
				display: func(m listed) string { return m.s("role") + ": " + m.s("parameter") },
				list: func(ctx context.Context, c *pg.Client, a listArgs) ([]listed, error) {
					f := pg.RoleSettingFilter{Role: a.str["role"], RoleRegex: a.str["role_regex"], IncludeSystem: a.includeSystem}
					if !a.flag["include_role_arguments"] {
						f.Exclude = roleManagedParameters
					}
					ss, err := c.ListRoleSettings(ctx, f)
					out := make([]listed, len(ss))
					for i, s := range ss {
						out[i] = listed{"role": s.Role, "parameter": s.Parameter}
					}
					return out, err
				}}
		},
		func() list.ListResource {
			return &catalogList[securityLabelModel]{kind: "security_label", newResource: NewSecurityLabelResource, database: true, clusterWide: "the labels of roles and tablespaces",
				nameFilter: true, subject: "the names of the labelled objects",
				systemObjects: "the labels of system objects (made by `initdb`, in `pg_*` schemas or `information_schema`, or by an extension's script)",
				about: "One result per security label on an object `postgresql_security_label` manages (not columns). " +
					"A routine is named by its name alone, as the resource names it: the label of an overloaded routine is not listed.",
				filters: map[string]listschema.StringAttribute{
					"label_provider": {Optional: true, MarkdownDescription: "Keep the labels of this label provider.", Validators: []validator.String{validators.Name()}},
					"object_type": {Optional: true, MarkdownDescription: "Keep the labels on objects of this type (`SECURITY LABEL`'s spelling, lower case).",
						Validators: []validator.String{stringvalidator.OneOf(pg.SecurityLabelObjectTypes...)}},
					"schema": schemaFilter("labels on objects"),
				},
				display: func(m listed) string {
					return m.s("database") + ": " + m.s("label_provider") + " label on " + described(m)
				},
				list: func(ctx context.Context, c *pg.Client, a listArgs) ([]listed, error) {
					os, err := c.ListSecurityLabels(ctx, a.db, pg.DescribedObjectFilter{Names: a.filter, ObjectType: a.str["object_type"], Schema: a.str["schema"],
						Provider: a.str["label_provider"], ClusterWide: a.clusterWide, IncludeSystem: a.includeSystem})
					out := make([]listed, len(os))
					for i, o := range os {
						out[i] = describedNames(a.db, o, "object_name")
					}
					return out, err
				}}
		},
		func() list.ListResource {
			return &catalogList[serverModel]{kind: "server", newResource: NewServerResource, nameFilter: true, database: true,
				systemObjects: "the servers of extensions",
				about:         "Options the wrapper hides from the provider's role are not read; options written with `options_wo` cannot be read back and are listed in `options`.",
				display:       func(m listed) string { return m.s("database") + "." + m.s("server_name") },
				list: func(ctx context.Context, c *pg.Client, a listArgs) ([]listed, error) {
					n, err := c.ListServerNames(ctx, a.db, a.filter, a.includeSystem)
					out := make([]listed, len(n))
					for i, s := range n {
						out[i] = listed{"database": a.db, "server_name": s}
					}
					return out, err
				}}
		},
		func() list.ListResource {
			return &catalogList[tableRLSModel]{kind: "table_rls", newResource: NewTableRLSResource, nameFilter: true, database: true,
				about: "The tables with row-level security enabled or forced (`ALTER TABLE ... ENABLE | FORCE ROW LEVEL SECURITY`); their policies are `postgresql_policy`'s. " +
					"The name filters apply to table names.",
				filters: map[string]listschema.StringAttribute{"schema": schemaFilter("tables")},
				display: func(m listed) string { return m.s("database") + "." + m.s("schema") + "." + m.s("table") },
				list: func(ctx context.Context, c *pg.Client, a listArgs) ([]listed, error) {
					ts, err := c.ListRLSTables(ctx, a.db, a.str["schema"], a.filter)
					out := make([]listed, len(ts))
					for i, t := range ts {
						out[i] = listed{"database": a.db, "schema": t.Schema, "table": t.Table}
					}
					return out, err
				}}
		},
		func() list.ListResource {
			return &catalogList[userMappingModel]{kind: "user_mapping", newResource: NewUserMappingResource, database: true,
				about: "`options` is sensitive, so `-generate-config-out` writes it as null: fill it in before the plan (a password in `options_wo`, with its name in `options_wo_names`).",
				filters: map[string]listschema.StringAttribute{
					"server_name": {Optional: true, MarkdownDescription: "Keep the mappings of servers matching this `LIKE` pattern (sent as a query parameter)."},
					"user_name":   {Optional: true, MarkdownDescription: "Keep the mappings of users matching this `LIKE` pattern (`public` for the mapping of `PUBLIC`)."},
				},
				display: func(m listed) string { return m.s("database") + ": " + m.s("user_name") + " on " + m.s("server_name") },
				list: func(ctx context.Context, c *pg.Client, a listArgs) ([]listed, error) {
					ms, err := c.ListUserMappings(ctx, a.db, a.str["server_name"], a.str["user_name"])
					out := make([]listed, len(ms))
					for i, m := range ms {
						out[i] = listed{"database": a.db, "server_name": m.Server, "user_name": m.User}
					}
					return out, err
				}}
		},
	}
}
