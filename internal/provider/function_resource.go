package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

var (
	_ managedResource                     = (*functionResource)(nil)
	_ tfkit.ChangePlanner[functionModel]  = (*functionResource)(nil)
	_ tfkit.DestroyPlanner[functionModel] = (*functionResource)(nil)
	_ tfkit.IDImporter                    = (*functionResource)(nil)
	_ tfkit.ImportIDAttributes            = (*functionResource)(nil)
)

// NewFunctionResource is the constructor of postgresql_function.
func NewFunctionResource() resource.Resource {
	r := &functionResource{}
	// The object's identity (Terraform 1.12+) is `id`.
	r.Lifecycle = newLifecycle[functionModel](r, "function", functionSchemaV1, "id")
	return r
}

type functionResource struct {
	tfkit.Lifecycle[functionModel]
	withClient
}

// Private state keys.
const (
	privFunctionImportArgs = "import_args" // input argument types from the import ID
	privFunctionRendering  = "rendering"   // the server's rendering of the state's spelling (functionRendering, JSON)
)

func functionSchemaV1() schema.Schema {
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "A PostgreSQL function (`CREATE FUNCTION`). Body, language, volatility, strictness, parallel safety and security " +
			"change in place with `CREATE OR REPLACE FUNCTION`; name and schema change in place with `ALTER FUNCTION ... RENAME TO / SET SCHEMA`. " +
			"A change to the arguments or the result type, which PostgreSQL cannot make in place, replaces the function.",
		Attributes: map[string]schema.Attribute{
			"id":       tfkit.IDAttr("`<database>.<schema>.<name>(<input argument types>)`, e.g. `postgres.public.add(integer,integer)`; OUT arguments are not listed."),
			"oid":      tfkit.OIDAttr("The function's OID. `CREATE OR REPLACE`, renames and schema moves keep it; a replacement gets a new one."),
			"name":     nameAttribute("The function name (1 to 63 bytes, always quoted). Changing it renames the function in place."),
			"schema":   unsetIfEmpty(publicSchemaAttribute("The schema of the function; `public` by default. Changing it moves the function in place (`ALTER FUNCTION ... SET SCHEMA`).")),
			"database": optionalDatabaseAttribute("The database of the function; the provider's `database` when not set. Changing it replaces the function."),
			"returns": unsetIfEmpty(schema.StringAttribute{
				Optional: true, Computed: true, CustomType: sqlTypeNameType{},
				MarkdownDescription: "The result type (`RETURNS`), e.g. `integer`, `SETOF text`, `TABLE(a int)`, `trigger`. When not set PostgreSQL derives it " +
					"from the OUT arguments (`record` for several) or uses `void`. Compared by meaning (`int` = `integer`): the configured spelling is kept. " +
					"Must be a single SQL fragment (no `;`, comments or unbalanced quotes or parentheses). Changing it replaces the function.",
				Validators:    []validator.String{validators.SQLFragment()},
				PlanModifiers: []planmodifier.String{tfkit.KeepSpelling()},
			}),
			"language": unsetIfEmpty(schema.StringAttribute{
				Optional: true, Computed: true, Default: stringdefault.StaticString(functionDefaultLanguage), CustomType: keywordType{},
				MarkdownDescription: "The implementation language (`LANGUAGE`), e.g. `plpgsql` (the default), `sql`, `internal`, `c`. Compared case-insensitively. " +
					"Only trusted languages (`sql`, `plpgsql`) are usable without superuser.",
				PlanModifiers: []planmodifier.String{tfkit.KeepSpelling()},
			}),
			"body": schema.StringAttribute{
				Required: true, CustomType: functionBodyType{},
				MarkdownDescription: "The function body (`AS '...'`), sent verbatim. Differences PostgreSQL ignores are not changes: line endings, " +
					"trailing spaces and leading/trailing blank lines (a heredoc's final newline).",
				PlanModifiers: []planmodifier.String{tfkit.KeepSpelling()},
			},
			"volatility": schema.StringAttribute{
				Optional: true, Computed: true, Default: stringdefault.StaticString("VOLATILE"), CustomType: keywordType{},
				MarkdownDescription: "`VOLATILE` (the default), `STABLE` or `IMMUTABLE`: what the planner may assume about repeated calls.",
				Validators:          []validator.String{stringvalidator.OneOfCaseInsensitive("VOLATILE", "STABLE", "IMMUTABLE")},
				PlanModifiers:       []planmodifier.String{tfkit.KeepSpelling()},
			},
			"parallel": schema.StringAttribute{
				Optional: true, Computed: true, Default: stringdefault.StaticString("UNSAFE"), CustomType: keywordType{},
				MarkdownDescription: "`UNSAFE` (the default), `RESTRICTED` or `SAFE`: whether the function may run in parallel workers (`PARALLEL`).",
				Validators:          []validator.String{stringvalidator.OneOfCaseInsensitive("UNSAFE", "RESTRICTED", "SAFE")},
				PlanModifiers:       []planmodifier.String{tfkit.KeepSpelling()},
			},
			"strict":           tfkit.DefaultedBoolAttr(false, "Whether the function returns NULL without being called when any argument is NULL (`STRICT`); `false` means `CALLED ON NULL INPUT`."),
			"security_definer": tfkit.DefaultedBoolAttr(false, "Whether the function runs with the privileges of its owner (`SECURITY DEFINER`) instead of its caller (`SECURITY INVOKER`)."),
			"drop_cascade":     tfkit.DefaultedBoolAttr(false, "Whether destroying (or replacing) the function also drops the objects that depend on it, such as triggers and views (`DROP FUNCTION ... CASCADE`)."),
		},
		Blocks: map[string]schema.Block{
			"arg": schema.ListNestedBlock{
				CustomType:    functionArgsType(),
				PlanModifiers: []planmodifier.List{tfkit.KeepSpelling()},
				MarkdownDescription: "The function's parameters, in order. Any change to them replaces the function (PostgreSQL identifies a function by its input types); " +
					"a change of spelling only (`int` to `integer`, `in` to `IN`) is not a change.",
				NestedObject: schema.NestedBlockObject{
					Attributes: map[string]schema.Attribute{
						"name": schema.StringAttribute{
							Optional: true, Computed: true, Default: stringdefault.StaticString(""),
							MarkdownDescription: "The parameter name; empty for an unnamed parameter.",
						},
						"type": schema.StringAttribute{
							Required: true,
							MarkdownDescription: "The parameter type, e.g. `integer`, `text[]`. Compared by meaning (`int4` = `integer`, `varchar(10)` = `character varying`): " +
								"the configured spelling is kept, also in `id`. Must be a single SQL fragment (no `;`, comments or unbalanced quotes or parentheses).",
							Validators: []validator.String{validators.SQLFragment()},
						},
						"mode": schema.StringAttribute{
							Optional: true, Computed: true, Default: stringdefault.StaticString("IN"),
							MarkdownDescription: "`IN` (the default), `OUT`, `INOUT` or `VARIADIC`. OUT parameters are not part of the function's identity.",
							Validators:          []validator.String{stringvalidator.OneOfCaseInsensitive("IN", "OUT", "INOUT", "VARIADIC")},
						},
						"default": schema.StringAttribute{
							Optional: true, Computed: true, Default: stringdefault.StaticString(""),
							MarkdownDescription: "An SQL expression used when the caller omits the parameter (`DEFAULT`); empty for none. The configured spelling is kept " +
								"while PostgreSQL's rendering of it is unchanged. Must be a single SQL fragment (no `;`, comments or unbalanced quotes or parentheses).",
							Validators: []validator.String{validators.SQLFragment()},
						},
					},
				},
			},
		},
	}
}

// ImportIDAttributes: the import ID is its id (see alreadyExists).
func (r *functionResource) ImportIDAttributes() []string { return []string{"id"} }

// ImportByID takes `<database>.<schema>.<name>(<input argument types>)`.
func (r *functionResource) ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	attrs, private, err := functionImport(req.ID)
	if err != nil {
		resp.Diagnostics.AddError("Invalid import ID", err.Error())
		return
	}
	for k, v := range private {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, k, v)...)
	}
	for _, a := range []string{"id", "database", "schema", "name"} {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(a), attrs[a])...)
	}
}

// functionImport is what an import by ID records (its list resource too):
// id, database, schema and name in the state, and the ID's input types in
// private state, with which the read finds the function and keeps their
// spelling.
func functionImport(id string) (attrs map[string]string, private map[string][]byte, err error) {
	db, schemaName, name, args, err := parseFunctionID(id)
	if err != nil {
		return nil, nil, err
	}
	b, err := json.Marshal(args)
	if err != nil {
		return nil, nil, err
	}
	return map[string]string{"id": id, "database": db, "schema": schemaName, "name": name}, map[string][]byte{privFunctionImportArgs: b}, nil
}

// parseFunctionID splits `<database>.<schema>.<name>(<t1>, <t2>)`. The names
// follow the import-ID grammar (see internal/tfkit/import_id.go): unquoted, the database and
// schema are taken up to the first and second dot; a name in double quotes may
// hold dots (and parentheses). The argument list is split on top-level commas
// (so `numeric(10,2)` stays one type).
func parseFunctionID(id string) (db, schemaName, name string, args []string, err error) {
	bad := fmt.Errorf("the import ID must be <database>.<schema>.<name>(<argument types>), e.g. postgres.public.add(integer,integer), "+
		"with a name that contains a dot in double quotes as in SQL (postgres.public.\"my.add\"(integer)); got %q", id)
	open := functionArgsStart(id)
	if open < 0 || !strings.HasSuffix(id, ")") {
		return "", "", "", nil, bad
	}
	splits, err := tfkit.ImportSplits(id[:open], 3)
	if err != nil || len(splits) == 0 {
		return "", "", "", nil, bad
	}
	parts := splits[0] // unquoted: up to the first and second dot, as always
	if inner := strings.TrimSpace(id[open+1 : len(id)-1]); inner != "" {
		for _, a := range pg.SplitTopLevel(inner) {
			args = append(args, strings.TrimSpace(a))
		}
	}
	for _, a := range args {
		if a == "" {
			return "", "", "", nil, fmt.Errorf("empty argument type in import ID %q", id)
		}
	}
	return parts[0], parts[1], parts[2], args, nil
}

// functionArgsStart is the index of the parenthesis that opens the argument
// list of a function import ID: the first one outside a quoted name (-1 when
// there is none). As in tfkit.SplitImportID, a name is quoted when it starts with a
// double quote.
func functionArgsStart(id string) int {
	inQuotes, nameStart := false, true
	for i := 0; i < len(id); i++ {
		ch := id[i]
		switch {
		case inQuotes && ch == '"' && i+1 < len(id) && id[i+1] == '"':
			i++
		case inQuotes && ch == '"':
			inQuotes = false
		case inQuotes:
		case ch == '"' && nameStart:
			inQuotes = true
		case ch == '(':
			return i
		}
		nameStart = !inQuotes && ch == '.'
	}
	return -1
}

// PlanChange runs no SQL. The arguments and the result type are planned
// with the state's spelling where the configuration means the same
// (tfkit.KeepSpelling, by pg.SameFunctionArgs and pg.SameType): planned
// otherwise, they replace the function.
func (r *functionResource) PlanChange(_ context.Context, _ resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, p *tfkit.Planned[functionModel]) {
	plan, config, state := &p.Plan, &p.Config, p.State
	planDatabase(p, r.client, func(m *functionModel) *types.String { return &m.Database })

	withReturns := !config.Returns.IsNull()
	if p.Creating() {
		if !withReturns {
			plan.Returns = sqlTypeName{StringValue: types.StringUnknown()}
		}
	} else {
		argsSame := plan.Arg.Equal(state.Arg)
		if !argsSame {
			resp.RequiresReplace = append(resp.RequiresReplace, path.Root("arg"))
		}
		switch {
		case withReturns && plan.Returns.Equal(state.Returns):
		case withReturns:
			resp.RequiresReplace = append(resp.RequiresReplace, path.Root("returns"))
		case argsSame:
			plan.Returns = state.Returns
		default:
			plan.Returns = sqlTypeName{StringValue: types.StringUnknown()}
		}
	}
	plan.ID = functionID(*plan)
}

// PlanDestroy warns when objects depend on the function (the only SQL of
// planning): the drop fails without drop_cascade, and takes them along with it.
func (r *functionResource) PlanDestroy(ctx context.Context, _ resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state *functionModel) {
	if r.client == nil || r.client.Ready() != nil || state.OID.IsNull() || state.OID.IsUnknown() {
		return
	}
	n, err := r.client.FunctionDependents(ctx, databaseOf(r.client, state.Database), uint32(state.OID.ValueInt64()))
	if err != nil || n == 0 {
		return
	}
	if state.DropCascade.ValueBool() {
		resp.Diagnostics.AddWarning("Function has dependent objects",
			fmt.Sprintf("%d object(s) (triggers, views, defaults...) depend on function %s; drop_cascade is true, so they will be dropped with it.", n, state.ID.ValueString()))
		return
	}
	resp.Diagnostics.AddWarning("Function has dependent objects",
		fmt.Sprintf("%d object(s) (triggers, views, defaults...) depend on function %s; the drop will fail unless they are removed first or drop_cascade is true.", n, state.ID.ValueString()))
}

// functionID is `<database>.<schema>.<name>(<input argument types>)` with the
// types as the state spells them (the configured spelling).
func functionID(m functionModel) types.String {
	if !isKnown(m.Database) || !isKnown(m.Schema) || !isKnown(m.Name) {
		return types.StringUnknown()
	}
	args, known := functionArgModels(m.Arg.ListValue)
	if !known {
		return types.StringUnknown()
	}
	for _, a := range args {
		if !isKnown(a.Type) || a.Mode.IsUnknown() {
			return types.StringUnknown()
		}
	}
	inputs := argModelsToSpec(args).inputTypes()
	return types.StringValue(fmt.Sprintf("%s.%s.%s(%s)", m.Database.ValueString(), m.Schema.ValueString(), m.Name.ValueString(), strings.Join(inputs, ",")))
}

func (r *functionResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: tfkit.UpgradeFromV0(upgradeFunctionV0),
	}
}

// functionReadHints tell read how to look the function up and which spellings to trust.
type functionReadHints struct {
	importArgs []string           // input argument types from the import ID (nil = not an import)
	trusted    bool               // the function was just written from this model: keep its spellings
	rendering  *functionRendering // the server's rendering of the state's spelling, recorded at the last apply or read
}

// functionRendering is how the server rendered the arguments and result type
// that the state spells (private state): as long as the server still shows
// this, the state's spelling means what the server has.
type functionRendering struct {
	Args    []pg.FunctionArg `json:"args"`
	Returns string           `json:"returns"`
}

// getFunctionReadHints are the hints of a read in call c: after a write, the
// model's spellings are trusted; on refresh, the private state holds the
// import's argument types and the recorded rendering.
func getFunctionReadHints(ctx context.Context, c *tfkit.Call) *functionReadHints {
	h := &functionReadHints{}
	if c.Wrote() {
		h.trusted = true
		return h
	}
	if b := c.PrivateKey(ctx, privFunctionImportArgs); len(b) > 0 {
		var args []string
		if json.Unmarshal(b, &args) == nil {
			h.importArgs = append([]string{}, args...)
		}
	}
	if b := c.PrivateKey(ctx, privFunctionRendering); len(b) > 0 {
		var rr functionRendering
		if json.Unmarshal(b, &rr) == nil {
			h.rendering = &rr
		}
	}
	return h
}

func setFunctionRendering(ctx context.Context, c *tfkit.Call, rr *functionRendering) diag.Diagnostics {
	if rr == nil {
		return nil
	}
	return c.SetPrivateJSON(ctx, privFunctionRendering, rr, "the function's rendering")
}

func (r *functionResource) Describe(m *functionModel) string {
	return fmt.Sprintf("function %s in database %q", pgconn.QuoteQualified(m.Schema.ValueString(), m.Name.ValueString()), databaseOf(r.client, m.Database))
}

// namesUsed: the database and the schema (awaitNames).
func (r *functionResource) namesUsed(m *functionModel) []pg.Ref {
	var n refs
	n.database("database", m.Database)
	n.schema(r.client, "schema", m.Database, m.Schema)
	return n
}

func (r *functionResource) CreateObject(ctx context.Context, _ *tfkit.Call, plan *functionModel) diag.Diagnostics {
	oid, err := r.client.CreateFunction(ctx, databaseOf(r.client, plan.Database), plan.spec())
	if err != nil {
		return tfkit.Failed("Could not create function", err)
	}
	plan.OID = types.Int64Value(int64(oid))
	return nil
}

func (r *functionResource) UpdateObject(ctx context.Context, _ *tfkit.Call, plan, state *functionModel) diag.Diagnostics {
	spec := plan.spec()
	// The signature did not change (that replaces): keep the state's spelling
	// of the result type so CREATE OR REPLACE sees the same type.
	spec.Returns = state.Returns.ValueString()
	plan.OID = state.OID
	return tfkit.Failed("Could not update function", r.client.UpdateFunction(ctx, databaseOf(r.client, state.Database), uint32(state.OID.ValueInt64()), spec))
}

func (r *functionResource) DropObject(ctx context.Context, _ *tfkit.Call, state *functionModel) diag.Diagnostics {
	return tfkit.Failed("Could not drop function", r.client.DropFunction(ctx, databaseOf(r.client, state.Database), uint32(state.OID.ValueInt64()),
		state.schemaName(), state.Name.ValueString(), state.argSpecs().inputTypes(), state.DropCascade.ValueBool()))
}

// ReadObject refreshes m (see readFunction) and records the server's rendering in
// the private state; a refresh also forgets the import's argument types.
func (r *functionResource) ReadObject(ctx context.Context, c *tfkit.Call, m *functionModel) (bool, diag.Diagnostics) {
	found, rendering, diags := r.readFunction(ctx, m, getFunctionReadHints(ctx, c))
	if !found || diags.HasError() {
		return found, diags
	}
	if c.Op == tfkit.OpRead {
		diags.Append(c.SetPrivateKey(ctx, privFunctionImportArgs, nil)...)
	}
	diags.Append(setFunctionRendering(ctx, c, rendering)...)
	return true, diags
}

// readFunction refreshes m from the server, keeping m's spelling of the arguments and
// result type where it means what the server has: just written from m, or
// rendered by the server exactly as recorded when m's spelling was applied,
// or the same by pg.SameFunctionArgs/pg.SameType. It runs only reads (no
// configuration text is executed) and reports whether the function exists
// and the server's current rendering, to be recorded in private state.
func (r *functionResource) readFunction(ctx context.Context, m *functionModel, hints *functionReadHints) (bool, *functionRendering, diag.Diagnostics) {
	var diags diag.Diagnostics
	if hints == nil {
		hints = &functionReadHints{}
	}
	db := databaseOf(r.client, m.Database)
	m.Database = types.StringValue(db) // "" is unset: the provider's database
	var oid uint32
	var err error
	var f *pg.Function
	if !m.OID.IsNull() && !m.OID.IsUnknown() {
		f, err = r.client.ReadFunction(ctx, db, uint32(m.OID.ValueInt64()))
		if err == nil && f != nil && f.Kind != "f" {
			f = nil
		}
	}
	if err == nil && f == nil {
		inputs := m.argSpecs().inputTypes()
		if hints.importArgs != nil {
			inputs = hints.importArgs
		}
		oid, err = r.client.FindFunction(ctx, db, m.schemaName(), m.Name.ValueString(), inputs)
		if err == nil && oid != 0 {
			f, err = r.client.ReadFunction(ctx, db, oid)
		}
	}
	if err != nil || f == nil {
		found, d := notFound("Could not read function", err) // a missing database: the function is gone
		return found, nil, d
	}
	m.OID = types.Int64Value(int64(f.OID))
	m.Name = types.StringValue(f.Name)
	m.Schema = types.StringValue(f.Schema)
	// the server's spelling: the framework keeps the state's (or, after a
	// write, the plan's) where it means the same (see spellings.go)
	m.Language = keyword{StringValue: types.StringValue(f.Language)}
	m.Body = functionBody{StringValue: types.StringValue(f.Body)}
	m.Volatility = keyword{StringValue: types.StringValue(f.Volatility)}
	m.Parallel = keyword{StringValue: types.StringValue(f.Parallel)}
	m.Strict = types.BoolValue(f.Strict)
	m.SecurityDefiner = types.BoolValue(f.SecurityDefiner)
	if m.DropCascade.IsNull() || m.DropCascade.IsUnknown() {
		m.DropCascade = types.BoolValue(false)
	}

	// The arguments keep m's spelling when they mean what the server has:
	// decided here, not left to the framework, since the id is made of
	// their spelling.
	rec := hints.rendering
	args, known := functionArgModels(m.Arg.ListValue)
	keepArgs := known && len(args) == len(f.Args) && (hints.trusted ||
		(rec != nil && pg.FunctionArgsEqual(rec.Args, f.Args)) ||
		m.Arg.SameAs(ctx, newFunctionArgList(serverArgModels(f.Args, nil))))
	if !keepArgs || m.Arg.IsNull() {
		var importArgs []string
		if hints.importArgs != nil && len(hints.importArgs) == len(pg.InputTypes(f.Args)) {
			// the import ID's spelling of the input types: to_regprocedure
			// found this very function with them, so they mean the same
			importArgs = hints.importArgs
		}
		m.Arg = newFunctionArgList(serverArgModels(f.Args, importArgs))
	}
	// "" (unset) is never kept: a refresh records the server's type (which
	// the framework replaces with the state's spelling when it means the
	// same, see spellings.go)
	keepReturns := isKnown(m.Returns) && m.Returns.ValueString() != "" && (hints.trusted ||
		(rec != nil && rec.Returns == f.Returns))
	if !keepReturns {
		m.Returns = sqlTypeName{StringValue: types.StringValue(f.Returns)}
	}
	m.ID = functionID(*m)
	return true, &functionRendering{Args: f.Args, Returns: f.Returns}, diags
}

// serverArgModels are the server's arguments, with the input types spelt
// as in importArgs when given (one per input argument).
func serverArgModels(fargs []pg.FunctionArg, importArgs []string) []functionArgModel {
	args := make([]functionArgModel, len(fargs))
	for i, a := range fargs {
		typ := a.Type
		if a.IsInput() && importArgs != nil {
			typ, importArgs = importArgs[0], importArgs[1:]
		}
		args[i] = functionArgModel{Name: types.StringValue(a.Name), Type: types.StringValue(typ), Mode: types.StringValue(a.Mode), Default: types.StringValue(a.Default)}
	}
	return args
}

type functionSpecArgs []pg.FunctionArg

func (a functionSpecArgs) inputTypes() []string { return pg.InputTypes(a) }

func argModelsToSpec(args []functionArgModel) functionSpecArgs {
	out := make(functionSpecArgs, len(args))
	for i, a := range args {
		out[i] = pg.FunctionArg{Name: a.Name.ValueString(), Type: a.Type.ValueString(), Mode: strings.ToUpper(a.Mode.ValueString()), Default: a.Default.ValueString()}
		if out[i].Mode == "" {
			out[i].Mode = "IN"
		}
	}
	return out
}

// argSpecs is the model's arguments (none while unknown).
func (m *functionModel) argSpecs() functionSpecArgs {
	args, _ := functionArgModels(m.Arg.ListValue)
	return argModelsToSpec(args)
}

var functionArgAttrTypes = map[string]attr.Type{
	"name": types.StringType, "type": types.StringType, "mode": types.StringType, "default": types.StringType,
}

// functionArgModels reads the arg list (null, as with no blocks, is empty);
// false when the list or one of its elements is unknown (a dynamic block over
// a value known only after apply).
func functionArgModels(l types.List) ([]functionArgModel, bool) {
	if l.IsUnknown() {
		return nil, false
	}
	out := make([]functionArgModel, 0, len(l.Elements()))
	for _, e := range l.Elements() {
		o, ok := e.(types.Object)
		if !ok || o.IsNull() || o.IsUnknown() {
			return nil, false
		}
		at := o.Attributes()
		get := func(k string) types.String {
			if v, ok := at[k].(types.String); ok {
				return v
			}
			return types.StringUnknown()
		}
		out = append(out, functionArgModel{Name: get("name"), Type: get("type"), Mode: get("mode"), Default: get("default")})
	}
	return out, true
}

func newFunctionArgList(args []functionArgModel) functionArgs {
	elems := make([]attr.Value, len(args))
	for i, a := range args {
		elems[i] = types.ObjectValueMust(functionArgAttrTypes, map[string]attr.Value{
			"name": a.Name, "type": a.Type, "mode": a.Mode, "default": a.Default,
		})
	}
	return functionArgs{ListValue: types.ListValueMust(types.ObjectType{AttrTypes: functionArgAttrTypes}, elems)}
}

// functionDefaultLanguage is the language of a function that names none.
const functionDefaultLanguage = "plpgsql"

// schemaName is the function's schema: "" is unset, public.
func (m *functionModel) schemaName() string {
	if s := m.Schema.ValueString(); s != "" {
		return s
	}
	return "public"
}

func (m *functionModel) spec() pg.FunctionSpec {
	language := m.Language.ValueString()
	if language == "" {
		language = functionDefaultLanguage // "" is unset
	}
	s := pg.FunctionSpec{
		Schema:          m.schemaName(),
		Name:            m.Name.ValueString(),
		Args:            m.argSpecs(),
		Language:        language,
		Body:            m.Body.ValueString(),
		Volatility:      strings.ToUpper(m.Volatility.ValueString()),
		Parallel:        strings.ToUpper(m.Parallel.ValueString()),
		Strict:          m.Strict.ValueBool(),
		SecurityDefiner: m.SecurityDefiner.ValueBool(),
	}
	if isKnown(m.Returns) {
		s.Returns = m.Returns.ValueString()
	}
	return s
}

type functionArgModel struct {
	Name    types.String `tfsdk:"name"`
	Type    types.String `tfsdk:"type"`
	Mode    types.String `tfsdk:"mode"`
	Default types.String `tfsdk:"default"`
}

type functionModel struct {
	ID              types.String `tfsdk:"id"`
	OID             types.Int64  `tfsdk:"oid"`
	Name            types.String `tfsdk:"name"`
	Schema          types.String `tfsdk:"schema"`
	Database        types.String `tfsdk:"database"`
	Arg             functionArgs `tfsdk:"arg"` // of functionArgModel; unknown while a dynamic block's for_each is
	Returns         sqlTypeName  `tfsdk:"returns"`
	Language        keyword      `tfsdk:"language"`
	Body            functionBody `tfsdk:"body"`
	Volatility      keyword      `tfsdk:"volatility"`
	Parallel        keyword      `tfsdk:"parallel"`
	Strict          types.Bool   `tfsdk:"strict"`
	SecurityDefiner types.Bool   `tfsdk:"security_definer"`
	DropCascade     types.Bool   `tfsdk:"drop_cascade"`
}
