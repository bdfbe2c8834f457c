package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

// grantListAbout is what postgresql_grant's list page says of the kind.
const grantListAbout = "Grants are listed the way they are written: what a grantee holds on an object is listed when it differs from what the object had when it was made " +
	"(the privileges `initdb` or an extension's script gave it, else PostgreSQL's built-in ones: the owner's, and `PUBLIC`'s `CONNECT` and `TEMPORARY` on databases, " +
	"`EXECUTE` on routines, `USAGE` on types and languages), and one `postgresql_grant` is listed per grantee, database, schema, object type, privilege set and grant option. " +
	"A grantee holding the same privileges on every table, sequence, function or procedure of a schema (those it owns aside) gets the all-objects form, `objects = []`, " +
	"which the resource reads again over every object of the schema at each refresh; otherwise the objects are named (routines with their argument types). " +
	"`PUBLIC` left without its built-in privileges (`REVOKE ALL ON DATABASE ... FROM PUBLIC`, `REVOKE EXECUTE ON FUNCTION ... FROM PUBLIC`, " +
	"`REVOKE CREATE ON SCHEMA public FROM PUBLIC`) comes out as `role = \"public\"` with the privileges it keeps, `[]` included. " +
	"Column privileges are listed per table as `object_type = \"column\"`; functions, aggregates and window functions as `function`, procedures as `procedure`, " +
	"types and domains as `type`. An owner's own privileges come with ownership and are never listed; default privileges are `postgresql_default_privileges`'s. " +
	"A grantee holding the grant option on only some of its privileges on an object cannot be said by one `postgresql_grant`: its first plan shows an update."

// newGrantList is postgresql_grant's list resource.
func newGrantList() *catalogList[grantModel] {
	return &catalogList[grantModel]{kind: "grant", newResource: NewGrantResource, database: true,
		systemObjects: "the grants on the system schemas (`pg_*`, `information_schema`) and their objects",
		clusterWide:   "the grants on tablespaces and (PostgreSQL 15+) configuration parameters",
		about:         grantListAbout,
		filters: map[string]listschema.StringAttribute{
			"role": {Optional: true, MarkdownDescription: "Keep the grants to grantees matching this `LIKE` pattern (sent as a query parameter; `public` is `PUBLIC`)."},
			"schema": {Optional: true, MarkdownDescription: "Keep the grants on this schema and on the objects in it.",
				Validators: []validator.String{stringvalidator.LengthBetween(1, 63)}},
			"object_type": {Optional: true, MarkdownDescription: "Keep the grants of this object type: `" + strings.Join(pg.ListedGrantObjectTypes, "`, `") + "`.",
				Validators: []validator.String{stringvalidator.OneOf(pg.ListedGrantObjectTypes...)}},
		},
		flags: map[string]listschema.BoolAttribute{
			"explicit_objects": {Optional: true, MarkdownDescription: "Always name the objects, never the all-objects form " +
				"(which also covers objects created later)."},
		},
		display: func(m listed) string {
			privs, _ := m["_privileges"].([]string)
			on := m.s("object_type")
			switch objs, _ := m["objects"].([]string); {
			case m.s("object_type") == pg.ObjDatabase:
				on += " " + m.s("database")
			case m.s("object_type") == pg.ObjSchema:
				on += " " + m.s("schema")
			case len(objs) == 0:
				on = "every " + on + " in schema " + m.s("schema")
			default:
				names := make([]string, len(objs))
				for i, o := range objs {
					if names[i] = o; m.s("schema") != "" {
						names[i] = m.s("schema") + "." + o
					}
				}
				on += " " + strings.Join(names, ", ")
				if cols, _ := m["columns"].([]string); len(cols) > 0 {
					on += " (" + strings.Join(cols, ", ") + ")"
				}
			}
			p := strings.Join(privs, ", ")
			if p == "" {
				p = "no privileges"
			}
			return fmt.Sprintf("%s: %s on %s to %s", m.s("database"), p, on, m.s("role"))
		},
		list: func(ctx context.Context, c *pg.Client, a listArgs) ([]listed, error) {
			gs, err := c.ListGrants(ctx, a.db, pg.GrantListFilter{Grantee: a.str["role"], Schema: a.str["schema"], ObjectType: a.str["object_type"],
				IncludeSystem: a.includeSystem, ClusterWide: a.clusterWide, ExplicitObjects: a.flag["explicit_objects"]})
			out := make([]listed, len(gs))
			for i, g := range gs {
				n := listed{"role": g.Grantee, "database": g.Database, "object_type": g.ObjectType,
					"objects": nonNil(g.Objects), "columns": nonNil(g.Columns)}
				if g.Schema != "" {
					n["schema"] = g.Schema
				}
				n["_privileges"] = g.Privileges // for the display name only
				out[i] = n
			}
			return out, err
		}}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
