package provider

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

var (
	_ validatedResource                     = (*publicationResource)(nil)
	_ tfkit.ChangePlanner[publicationModel] = (*publicationResource)(nil)
	_ tfkit.IDImporter                      = (*publicationResource)(nil)
	_ tfkit.ImportIDAttributes              = (*publicationResource)(nil)
)

// NewPublicationResource is the constructor of postgresql_publication.
func NewPublicationResource() resource.Resource {
	r := &publicationResource{}
	// The object's identity (Terraform 1.12+) is `database`, `name`.
	r.Lifecycle = newLifecycle[publicationModel](r, "publication", publicationSchemaV1, "database", "name")
	return r
}

type publicationResource struct {
	tfkit.Lifecycle[publicationModel]
	withClient
}

var allPublishParams = []string{"insert", "update", "delete", "truncate"}

// allGeneratedColumnsParams are the values of publish_generated_columns (PostgreSQL 18).
var allGeneratedColumnsParams = []string{"none", "stored"}

func publicationSchemaV1() schema.Schema {
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "A logical replication publication (`CREATE PUBLICATION`): the set of tables whose changes subscribers receive. " +
			"Tables, schemas, options, owner and name change in place (`ALTER PUBLICATION`); switching `all_tables` replaces the publication. " +
			"`FOR ALL TABLES` and `FOR TABLES IN SCHEMA` need superuser; adding a table needs ownership of it.",
		Attributes: map[string]schema.Attribute{
			"id":       tfkit.IDAttr("`<database>.<name>`."),
			"oid":      tfkit.OIDAttr("The publication's OID; it survives renames and other in-place changes."),
			"name":     nameAttribute("The publication name, unique in its database. Changing it renames the publication in place."),
			"database": optionalDatabaseAttribute("The database of the publication (and of its tables); the provider's `database` when not set. Changing it replaces the publication."),
			"owner": unsetIfEmpty(schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "The role owning the publication; the provider's role when not set. The owner needs `CREATE` on the database " +
					"(and, for `all_tables`, superuser). A non-superuser provider role is made a member of the new owner for the change and then removed.",
				Validators: []validator.String{validators.Name()},
			}),
			"tables": schema.SetAttribute{
				ElementType: types.StringType,
				Optional:    true, Computed: true,
				MarkdownDescription: "The tables published, as `schema.table` (an unqualified name means `public`; quote parts with `\"` when they contain dots). " +
					"Changed in place (`ALTER PUBLICATION ... ADD/DROP TABLE`). When not set, the tables are not managed and the attribute reports " +
					"the tables added outside Terraform, or, with `all_tables`, every table published. Partitions of a published partitioned table are published through it.",
				Validators: []validator.Set{setvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))},
			},
			"schemas": schema.SetAttribute{
				ElementType: types.StringType,
				Optional:    true, Computed: true,
				MarkdownDescription: "Schemas whose tables (present and future) are all published (`FOR TABLES IN SCHEMA`, PostgreSQL 15 or later; needs superuser). " +
					"Changed in place. When not set, they are not managed.",
				Validators: []validator.Set{setvalidator.ValueStringsAre(validators.Name())},
			},
			"all_tables": tfkit.DefaultedBoolAttr(false, "Publish every table of the database, present and future (`FOR ALL TABLES`; needs superuser). PostgreSQL cannot switch an "+
				"existing publication to or from this mode, so a change replaces the publication.", boolplanmodifier.RequiresReplace()),
			"publish_param": schema.ListAttribute{
				ElementType: types.StringType,
				Optional:    true, Computed: true,
				Default: listdefault.StaticValue(types.ListValueMust(types.StringType, []attr.Value{
					types.StringValue("insert"), types.StringValue("update"), types.StringValue("delete"), types.StringValue("truncate")})),
				MarkdownDescription: "Which operations are published (`publish` option): any of `insert`, `update`, `delete`, `truncate`; all four by default. " +
					"Order does not matter.",
				Validators: []validator.List{listvalidator.ValueStringsAre(stringvalidator.OneOf(allPublishParams...)), listvalidator.UniqueValues()},
			},
			"publish_via_partition_root_param": tfkit.DefaultedBoolAttr(false, "Publish changes of partitions as changes of their partitioned table (`publish_via_partition_root`), so the subscriber "+
				"needs only the root table."),
			"publish_generated_columns_param": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "Whether the values of generated columns are published (`publish_generated_columns`, PostgreSQL 18 or later): " +
					"`none` or `stored` (stored generated columns). Changed in place. When not set, it is not managed: a new publication gets " +
					"the server's default (`none`) and the attribute reports the server's value; on servers older than PostgreSQL 18 it is null, " +
					"and setting it is an error at plan time.",
				Validators: []validator.String{stringvalidator.OneOf(allGeneratedColumnsParams...)},
			},
			"drop_cascade": tfkit.DefaultedBoolAttr(false, "Use `DROP PUBLICATION ... CASCADE` on destroy. (Publications have no dependent objects in PostgreSQL today; kept for compatibility.)"),
		},
	}
}

func (r *publicationResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m publicationModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if m.AllTables.ValueBool() {
		for _, a := range []struct {
			name string
			v    types.Set
		}{{"tables", m.Tables}, {"schemas", m.Schemas}} {
			if !a.v.IsNull() && !a.v.IsUnknown() && len(a.v.Elements()) > 0 {
				resp.Diagnostics.AddAttributeError(path.Root(a.name), "Conflicting arguments",
					fmt.Sprintf("A publication with all_tables = true publishes every table; %s cannot be set too.", a.name))
			}
		}
	}
	if !m.Tables.IsNull() && !m.Tables.IsUnknown() {
		for _, e := range m.Tables.Elements() {
			s, ok := e.(types.String)
			if !ok || s.IsUnknown() {
				continue
			}
			if _, err := pg.ParseQualifiedName(s.ValueString()); err != nil {
				resp.Diagnostics.AddAttributeError(path.Root("tables"), "Invalid table name", err.Error())
			}
		}
	}
}

// publicationImport is the import ID of a publication (see internal/tfkit/import_id.go).
var publicationImport = tfkit.ImportForm{What: "publication", Names: []string{"name"}, Database: true}

// ImportIDAttributes: the import ID is made of `database` and `name` (see alreadyExists).
func (r *publicationResource) ImportIDAttributes() []string { return []string{"database", "name"} }

func (r *publicationResource) ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(publicationImport.Resolve(ctx, importServer(r.client), req.ID, func(db string, names []string) (bool, error) {
		p, err := r.client.ReadPublication(ctx, db, 0, names[0])
		if err != nil || p == nil {
			return false, err
		}
		resp.Diagnostics.Append(tfkit.SetAttributes(ctx, &resp.State, "database", db, "name", p.Name, "id", db+"."+p.Name)...)
		return true, nil
	})...)
}

// PlanChange plans a replacement (new, or all_tables or database changed)
// with the server's defaults for what the configuration leaves unset, and an
// update with the state's values and spellings.
func (r *publicationResource) PlanChange(ctx context.Context, _ resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, p *tfkit.Planned[publicationModel]) {
	plan, config, state := &p.Plan, &p.Config, p.State
	// the server's major version, asked only when an argument depends on it
	major := sync.OnceValue(func() int { return serverMajor(ctx, r.client) })
	if len(tfkit.SetStrings(ctx, config.Schemas)) > 0 {
		if major := major(); major > 0 && major < 15 {
			resp.Diagnostics.AddAttributeError(path.Root("schemas"), "Unsupported on this server version",
				fmt.Sprintf("Publishing the tables of a schema (FOR TABLES IN SCHEMA) needs PostgreSQL 15 or later; the server runs PostgreSQL %d. "+
					"List the tables in tables instead.", major))
			return
		}
	}
	if isKnown(config.PublishGeneratedColumnsParam) {
		if major := major(); major > 0 && major < 18 {
			resp.Diagnostics.AddAttributeError(path.Root("publish_generated_columns_param"), "Unsupported on this server version",
				fmt.Sprintf("Publishing generated columns (publish_generated_columns) needs PostgreSQL 18 or later; the server runs PostgreSQL %d. "+
					"Leave publish_generated_columns_param unset.", major))
			return
		}
	}
	planDatabase(p, r.client, func(m *publicationModel) *types.String { return &m.Database })
	// ("" recorded by a create with database = "" is the provider's database)
	replacing := p.Creating() || !plan.AllTables.Equal(state.AllTables) || !sameDatabase(r.client, plan.Database, state.Database)
	if replacing {
		if config.Tables.IsNull() {
			if plan.AllTables.ValueBool() {
				plan.Tables = types.SetUnknown(types.StringType)
			} else {
				plan.Tables = types.SetValueMust(types.StringType, []attr.Value{})
			}
		}
		if config.Schemas.IsNull() {
			plan.Schemas = types.SetValueMust(types.StringType, []attr.Value{})
		}
		if config.Owner.IsNull() {
			plan.Owner = types.StringUnknown()
		}
		if config.PublishGeneratedColumnsParam.IsNull() {
			// the server's default on 18+ (read after create), nothing before
			plan.PublishGeneratedColumnsParam = types.StringUnknown()
			if m := major(); m > 0 && m < 18 {
				plan.PublishGeneratedColumnsParam = types.StringNull()
			}
		}
	} else {
		if config.Tables.IsNull() || tableSetsEqual(ctx, plan.Tables, state.Tables) {
			plan.Tables = state.Tables
		}
		if config.Schemas.IsNull() {
			plan.Schemas = state.Schemas
		}
		keepUnset(p, func(m *publicationModel) *types.String { return &m.Owner })
		keepUnset(p, func(m *publicationModel) *types.String { return &m.PublishGeneratedColumnsParam })
		if config.PublishGeneratedColumnsParam.IsNull() && state.PublishGeneratedColumnsParam.IsNull() && major() >= 18 {
			// not refreshed since an upgrade from cyrilgdn's layout (-refresh=false): the read after apply fills it
			plan.PublishGeneratedColumnsParam = types.StringUnknown()
		}
		if sameStringList(ctx, plan.PublishParam, state.PublishParam) {
			plan.PublishParam = state.PublishParam
		}
	}
	plan.ID = joinedID(plan.Database, plan.Name)
}

func (r *publicationResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: tfkit.UpgradeFromV0(upgradePublicationV0, "oid", "schemas", "publish_generated_columns_param"),
	}
}

// tableSetsEqual compares two sets of table names by the tables they name.
func tableSetsEqual(ctx context.Context, a, b types.Set) bool {
	if a.IsUnknown() || b.IsUnknown() || a.IsNull() != b.IsNull() {
		return false
	}
	na, ok1 := qualifiedNames(ctx, a)
	nb, ok2 := qualifiedNames(ctx, b)
	if !ok1 || !ok2 || len(na) != len(nb) {
		return false
	}
	for i := range na {
		if na[i] != nb[i] {
			return false
		}
	}
	return true
}

func qualifiedNames(ctx context.Context, s types.Set) ([]string, bool) {
	var raw []string
	if s.ElementsAs(ctx, &raw, false).HasError() {
		return nil, false
	}
	out := make([]string, 0, len(raw))
	seen := map[string]bool{}
	for _, x := range raw {
		q, err := pg.ParseQualifiedName(x)
		if err != nil {
			return nil, false
		}
		k := q.Schema + "\x00" + q.Name
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out, true
}

func sameStringList(ctx context.Context, a, b types.List) bool {
	if a.IsUnknown() || b.IsUnknown() || a.IsNull() || b.IsNull() {
		return false
	}
	var x, y []string
	if a.ElementsAs(ctx, &x, false).HasError() || b.ElementsAs(ctx, &y, false).HasError() || len(x) != len(y) {
		return false
	}
	sort.Strings(x)
	sort.Strings(y)
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

func (r *publicationResource) Describe(m *publicationModel) string {
	return fmt.Sprintf("publication %q in database %q", m.Name.ValueString(), databaseOf(r.client, m.Database))
}

// namesUsed: the database, the owner and the schemas published (awaitNames).
func (r *publicationResource) namesUsed(m *publicationModel) []pg.Ref {
	var n refs
	n.database("database", m.Database)
	n.role("owner", m.Owner)
	if !m.Schemas.IsNull() && !m.Schemas.IsUnknown() {
		for _, e := range m.Schemas.Elements() {
			if s, ok := e.(types.String); ok {
				n.schema(r.client, "schemas", m.Database, s)
			}
		}
	}
	return n
}

func (r *publicationResource) CreateObject(ctx context.Context, _ *tfkit.Call, plan *publicationModel) diag.Diagnostics {
	spec, diags := plan.spec(ctx)
	if diags.HasError() {
		return diags
	}
	oid, err := r.client.CreatePublication(ctx, databaseOf(r.client, plan.Database), spec)
	if err != nil {
		return tfkit.Failed("Could not create publication", err)
	}
	plan.OID = types.Int64Value(int64(oid))
	return nil
}

func (r *publicationResource) UpdateObject(ctx context.Context, _ *tfkit.Call, plan, state *publicationModel) diag.Diagnostics {
	spec, diags := plan.spec(ctx)
	if diags.HasError() {
		return diags
	}
	return tfkit.Failed("Could not update publication", r.client.UpdatePublication(ctx, databaseOf(r.client, state.Database), uint32(state.OID.ValueInt64()), spec))
}

func (r *publicationResource) DropObject(ctx context.Context, _ *tfkit.Call, state *publicationModel) diag.Diagnostics {
	return tfkit.Failed("Could not drop publication", r.client.DropPublication(ctx, databaseOf(r.client, state.Database),
		uint32(state.OID.ValueInt64()), state.Name.ValueString(), state.DropCascade.ValueBool()))
}

// ReadObject refreshes m from the server, keeping m's spelling of equal values.
func (r *publicationResource) ReadObject(ctx context.Context, _ *tfkit.Call, m *publicationModel) (bool, diag.Diagnostics) {
	var diags diag.Diagnostics
	db := databaseOf(r.client, m.Database)
	m.Database = types.StringValue(db) // "" is unset: the provider's database
	p, err := tfkit.ReadByOIDOrName(m.OID, m.Name.ValueString(), func(oid uint32, name string) (*pg.Publication, error) {
		return r.client.ReadPublication(ctx, db, oid, name)
	})
	if err != nil || p == nil {
		return notFound("Could not read publication", err)
	}
	m.OID = types.Int64Value(int64(p.OID))
	m.Name = types.StringValue(p.Name)
	m.Owner = types.StringValue(p.Owner)
	m.AllTables = types.BoolValue(p.AllTables)
	m.PublishViaPartitionRootParam = types.BoolValue(p.ViaPartitionRoot)
	m.PublishGeneratedColumnsParam = types.StringNull() // before PostgreSQL 18
	if p.GeneratedColumns != "" {
		m.PublishGeneratedColumnsParam = types.StringValue(p.GeneratedColumns)
	}
	tables := make([]string, len(p.Tables))
	for i, t := range p.Tables {
		tables[i] = t.String()
	}
	serverTables, d := types.SetValueFrom(ctx, types.StringType, tables)
	diags.Append(d...)
	if !tableSetsEqual(ctx, m.Tables, serverTables) {
		m.Tables = serverTables
	}
	m.Schemas, d = types.SetValueFrom(ctx, types.StringType, p.Schemas)
	diags.Append(d...)
	serverPublish, d := types.ListValueFrom(ctx, types.StringType, p.Publish)
	diags.Append(d...)
	if !sameStringList(ctx, m.PublishParam, serverPublish) {
		m.PublishParam = serverPublish
	}
	if m.DropCascade.IsNull() || m.DropCascade.IsUnknown() {
		m.DropCascade = types.BoolValue(false)
	}
	m.ID = types.StringValue(m.Database.ValueString() + "." + p.Name)
	return true, diags
}

func (m *publicationModel) spec(ctx context.Context) (pg.PublicationSpec, diag.Diagnostics) {
	var diags diag.Diagnostics
	s := pg.PublicationSpec{
		Name:             m.Name.ValueString(),
		AllTables:        m.AllTables.ValueBool(),
		ViaPartitionRoot: m.PublishViaPartitionRootParam.ValueBool(),
	}
	if isKnown(m.Owner) {
		s.Owner = m.Owner.ValueString()
	}
	if isKnown(m.PublishGeneratedColumnsParam) {
		s.GeneratedColumns = m.PublishGeneratedColumnsParam.ValueString()
	}
	var publish []string
	diags.Append(m.PublishParam.ElementsAs(ctx, &publish, false)...)
	for _, p := range allPublishParams { // canonical order
		for _, x := range publish {
			if x == p {
				s.Publish = append(s.Publish, p)
			}
		}
	}
	if !s.AllTables && !m.Tables.IsUnknown() && !m.Tables.IsNull() {
		var raw []string
		diags.Append(m.Tables.ElementsAs(ctx, &raw, false)...)
		seen := map[pg.QualifiedName]bool{}
		for _, x := range raw {
			q, err := pg.ParseQualifiedName(x)
			if err != nil {
				diags.AddAttributeError(path.Root("tables"), "Invalid table name", err.Error())
				continue
			}
			if !seen[q] {
				seen[q] = true
				s.Tables = append(s.Tables, q)
			}
		}
	}
	if !s.AllTables && !m.Schemas.IsUnknown() && !m.Schemas.IsNull() {
		diags.Append(m.Schemas.ElementsAs(ctx, &s.Schemas, false)...)
	}
	return s, diags
}

type publicationModel struct {
	ID                           types.String `tfsdk:"id"`
	OID                          types.Int64  `tfsdk:"oid"`
	Name                         types.String `tfsdk:"name"`
	Database                     types.String `tfsdk:"database"`
	Owner                        types.String `tfsdk:"owner"`
	Tables                       types.Set    `tfsdk:"tables"`
	Schemas                      types.Set    `tfsdk:"schemas"`
	AllTables                    types.Bool   `tfsdk:"all_tables"`
	PublishParam                 types.List   `tfsdk:"publish_param"`
	PublishViaPartitionRootParam types.Bool   `tfsdk:"publish_via_partition_root_param"`
	PublishGeneratedColumnsParam types.String `tfsdk:"publish_generated_columns_param"`
	DropCascade                  types.Bool   `tfsdk:"drop_cascade"`
}
