package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"text/template"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// The conformance suite (issue 9): for every resource type and every optional
// attribute of its schema, a list of variants (unset, null, empty collection,
// the spelling PostgreSQL prints, another spelling with the same meaning), each
// checked three ways against a real cluster:
//
//  1. create → the post-apply plan is empty;
//  2. import → empty plan: a separate working directory plans the same
//     configuration with one import block per variant over a state without
//     them, and every planned action must be a no-op;
//  3. state upgraded from schema version 0 (cyrilgdn's layout) → empty plan:
//     the v1 state after apply is downgraded per type to cyrilgdn's layout
//     (attributes of the frozen prior schema, cyrilgdn's id), seeded, and
//     planned.
//
// All variants of one type are one configuration (one resource block per
// variant; identical variants share a block), so each type costs one apply
// and two extra plans; types run in parallel. TestConformance_coverage (a unit
// test) fails when an optional attribute of a schema has no entry here, or an
// entry names an attribute that no longer exists, so coverage cannot rot.
//
// Set PGTF_CONFORMANCE_KNOWN=1 to also run the variants marked knownIssue.

// Variant labels.
const (
	lUnset  = "unset"
	lNull   = "null"
	lEmpty  = "empty"
	lServer = "server"
	lAlias  = "alias"
	// lDefault is the keyword DEFAULT where it stands for the server's default.
	lDefault = "default"
)

type confVariant struct {
	label string
	// hcl is the attribute assignment(s) added to the type's base body (a
	// text/template over confNames).
	hcl string
	// knownIssue skips the variant with this reason (a defect being fixed elsewhere).
	knownIssue string
	// noImport / noV0 skip one check with this reason.
	noImport string
	noV0     string
	// managedNoImport skips the import check in managed mode only, with this reason.
	managedNoImport string
	// superuserOnly skips the variant in managed mode with this reason.
	superuserOnly string
	// minMajor skips the variant on older PostgreSQL.
	minMajor int
	// vars are visible to the body template as .V.
	vars map[string]string
}

type confAttr struct {
	variants []confVariant
	// none is why the attribute takes no variants (write-only, covered elsewhere...).
	none string
}

type confType struct {
	// skip, when set, skips the whole type (admin mode, missing server module).
	skip func(t *testing.T)
	// setup creates, as the superuser, objects the provider has no resource
	// for (tables, functions), and registers their cleanup.
	setup func(t *testing.T, n confNames)
	// prereqs are resources the variants need (text/template over confNames).
	prereqs string
	// perInstance is rendered once per variant block (a database of its own...).
	perInstance string
	// body is the base body of every variant's resource block.
	body string
	// attrs is keyed by attribute path ("policy.role" for nested attributes; a
	// block's own path for the block).
	attrs map[string]confAttr
	// tfkit.ImportID is the import ID of an instance from its v1 state values.
	importID func(v map[string]any) string
	// v0 adjusts the generic downgrade (attributes of the prior schema copied by
	// name from v1) to cyrilgdn's layout: at least its id. nil with an upgrader
	// means the generic downgrade suffices; types without an upgrader skip the
	// v0 check.
	v0 func(v0, v1 map[string]any)
	// base are variants standing for no attribute (types without optional attributes).
	base []confVariant
	// noV0 skips the v0 check of the whole type with this reason.
	noV0 string
	// managedNoImport skips the import check of every variant in managed mode,
	// with this reason.
	managedNoImport string
	// serial makes types sharing server-wide objects run one at a time.
	serial bool
}

// confNames are the names the templates see.
type confNames struct {
	P     string // random prefix, unique per test
	I     string // unique per variant block
	Admin string // the provider's role
	// Conninfo reaches database <P>_pub of the test cluster (subscriptions)
	Conninfo string
	V        map[string]string
}

func simpleV(label, hcl string) confVariant { return confVariant{label: label, hcl: hcl} }

func strAttr(name string, values ...string) []confVariant {
	out := []confVariant{{label: lUnset}, {label: lNull, hcl: name + " = null"}}
	labels := []string{lServer, lAlias}
	for i, v := range values {
		l := labels[min(i, 1)]
		if i > 1 {
			l = fmt.Sprintf("%s%d", lAlias, i)
		}
		out = append(out, confVariant{label: l, hcl: fmt.Sprintf("%s = %s", name, v)})
	}
	return out
}

// optionalPaths lists the optional attribute paths (and optional blocks) of a schema.
func optionalPaths(attrs map[string]schema.Attribute, blocks map[string]schema.Block, prefix string) []string {
	var out []string
	for n, a := range attrs {
		if a.IsOptional() {
			out = append(out, prefix+n)
		}
		if na, ok := a.(schema.NestedAttribute); ok {
			if o, ok := na.GetNestedObject().(schema.NestedAttributeObject); ok {
				out = append(out, optionalPaths(o.Attributes, nil, prefix+n+".")...)
			}
		}
	}
	for n, b := range blocks {
		out = append(out, prefix+n)
		if o, ok := b.GetNestedObject().(schema.NestedBlockObject); ok {
			out = append(out, optionalPaths(o.Attributes, o.Blocks, prefix+n+".")...)
		}
	}
	sort.Strings(out)
	return out
}

type servedResource struct {
	typeName string
	res      resource.Resource
	schema   schema.Schema
}

func servedResources(t *testing.T) []servedResource {
	t.Helper()
	ctx := context.Background()
	var out []servedResource
	for _, f := range New("test")().Resources(ctx) {
		r := f()
		var m resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "postgresql"}, &m)
		var s resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &s)
		if s.Diagnostics.HasError() {
			t.Fatalf("%s: schema: %v", m.TypeName, s.Diagnostics)
		}
		out = append(out, servedResource{m.TypeName, r, s.Schema})
	}
	return out
}

// TestConformance_coverage fails when an optional attribute of a served
// resource has no variant (nor a reason for none) in conformanceTypes, or when
// conformanceTypes names a type or attribute the provider no longer has.
func TestConformance_coverage(t *testing.T) {
	served := map[string]bool{}
	for _, sr := range servedResources(t) {
		served[sr.typeName] = true
		ct, ok := conformanceTypes[sr.typeName]
		if !ok {
			t.Errorf("%s: no entry in conformanceTypes (add a base configuration and variants for its optional attributes)", sr.typeName)
			continue
		}
		paths := optionalPaths(sr.schema.Attributes, sr.schema.Blocks, "")
		for _, p := range paths {
			a, ok := ct.attrs[p]
			switch {
			case !ok:
				t.Errorf("%s: optional attribute %q has no conformance variants (list them in conformanceTypes, or give a reason for none)", sr.typeName, p)
			case len(a.variants) == 0 && a.none == "":
				t.Errorf("%s: attribute %q lists neither variants nor a reason for none", sr.typeName, p)
			}
		}
		for p := range ct.attrs {
			if !slices.Contains(paths, p) {
				t.Errorf("%s: conformanceTypes lists %q, which is not an optional attribute of the schema", sr.typeName, p)
			}
		}
	}
	for typ := range conformanceTypes {
		if !served[typ] {
			t.Errorf("conformanceTypes lists %s, which the provider does not serve", typ)
		}
	}
}

// confInstance is one resource block of a type's configuration.
type confInstance struct {
	name     string   // block name
	hcl      string   // rendered variant hcl
	covers   []string // attr/label pairs it stands for
	noImport string
	noV0     string
	vars     map[string]string
}

var confBlockName = regexp.MustCompile(`[^a-z0-9_]+`)

func renderTemplate(t *testing.T, text string, data confNames) string {
	t.Helper()
	tpl, err := template.New("").Option("missingkey=zero").Parse(text)
	if err != nil {
		t.Fatalf("template %q: %v", text, err)
	}
	var b bytes.Buffer
	if err := tpl.Execute(&b, data); err != nil {
		t.Fatalf("template %q: %v", text, err)
	}
	return b.String()
}

// TestAccConformance runs every type's variants: create, import and v0 → empty plan.
func TestAccConformance(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC (make testacc)")
	}
	known := os.Getenv("PGTF_CONFORMANCE_KNOWN") != ""
	forEachConformanceType(t, func(t *testing.T, sr servedResource, ct confType) {
		runConformanceType(t, sr, ct, known)
	})
}

// forEachConformanceType runs f in a subtest for every resource type with a
// conformance entry, skipped as the entry says, serialised where it must be
// and parallel otherwise.
func forEachConformanceType(t *testing.T, f func(t *testing.T, sr servedResource, ct confType)) {
	for _, sr := range servedResources(t) {
		ct, ok := conformanceTypes[sr.typeName]
		if !ok {
			continue // TestConformance_coverage reports it
		}
		t.Run(strings.TrimPrefix(sr.typeName, "postgresql_"), func(t *testing.T) {
			if ct.skip != nil {
				ct.skip(t)
			}
			if ct.serial {
				fdwCasesMu.Lock()
				defer fdwCasesMu.Unlock()
			} else {
				t.Parallel()
			}
			f(t, sr, ct)
		})
	}
}

func runConformanceType(t *testing.T, sr servedResource, ct confType, known bool) {
	// no hyphen: the prefix also names replication slots
	prefix := strings.ReplaceAll(acctest.RandName("cf"), "-", "_")
	base := confNames{P: prefix, Admin: acctest.AdminUser(), Conninfo: acctest.Conninfo(prefix + "_pub")}

	// one block per distinct variant
	var instances []*confInstance
	byHCL := map[string]*confInstance{}
	paths := make([]string, 0, len(ct.attrs))
	for p := range ct.attrs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	variantsOf := func(p string) []confVariant {
		if p == "(base)" {
			return ct.base
		}
		return ct.attrs[p].variants
	}
	major := acctest.ServerMajor(t)
	for _, p := range append([]string{"(base)"}, paths...) {
		for _, v := range variantsOf(p) {
			what := p + "/" + v.label
			if v.knownIssue != "" && !known {
				t.Logf("skipping variant %s: known issue: %s", what, v.knownIssue)
				continue
			}
			if v.superuserOnly != "" && acctest.Managed() {
				t.Logf("skipping variant %s in managed mode: needs superuser: %s", what, v.superuserOnly)
				continue
			}
			if v.managedNoImport != "" && acctest.Managed() {
				v.noImport = v.managedNoImport
			}
			if ct.managedNoImport != "" && acctest.Managed() {
				v.noImport = ct.managedNoImport
			}
			if v.minMajor > major {
				t.Logf("skipping variant %s: needs PostgreSQL %d", what, v.minMajor)
				continue
			}
			key := v.hcl + "\x00" + v.noImport + "\x00" + v.noV0 + "\x00" + fmt.Sprint(v.vars)
			if in, ok := byHCL[key]; ok {
				in.covers = append(in.covers, what)
				continue
			}
			name := fmt.Sprintf("v%02d_%s", len(instances), strings.Trim(confBlockName.ReplaceAllString(strings.ToLower(p+"_"+v.label), "_"), "_"))
			in := &confInstance{name: name, hcl: v.hcl, covers: []string{what}, noImport: v.noImport, noV0: v.noV0, vars: v.vars}
			byHCL[key] = in
			instances = append(instances, in)
		}
	}
	if ct.setup != nil {
		ct.setup(t, base)
	}
	var cfg strings.Builder
	cfg.WriteString(renderTemplate(t, ct.prereqs, base))
	for i, in := range instances {
		n := base
		n.I = fmt.Sprintf("%s_%d", prefix, i)
		n.V = in.vars
		if ct.perInstance != "" {
			cfg.WriteString(renderTemplate(t, ct.perInstance, n))
		}
		fmt.Fprintf(&cfg, "\n# %s\nresource %q %q {\n%s\n%s\n}\n", strings.Join(in.covers, ", "), sr.typeName, in.name,
			renderTemplate(t, ct.body, n), renderTemplate(t, in.hcl, n))
	}
	config := cfg.String()
	if len(instances) == 0 {
		t.Skip("no variants")
	}
	t.Logf("%d variant blocks", len(instances))

	upgraders := map[int64]resource.StateUpgrader{}
	if u, ok := sr.res.(resource.ResourceWithUpgradeState); ok {
		upgraders = u.UpgradeState(context.Background())
	}
	check := &conformanceCheck{t: t, sr: sr, ct: ct, config: config, instances: instances, prior: upgraders[0].PriorSchema}
	tfresource.Test(t, tfresource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []tfresource.TestStep{{
			Config: acctest.ProviderBlock + config,
			ConfigPlanChecks: tfresource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{check},
		}},
	})
}

// conformanceCheck runs the import and v0 checks while the objects exist
// (it is a state check of the apply step).
type conformanceCheck struct {
	t         *testing.T
	sr        servedResource
	ct        confType
	config    string
	instances []*confInstance
	prior     *schema.Schema
}

type stateInstance struct {
	SchemaVersion       int64          `json:"schema_version"`
	Attributes          map[string]any `json:"attributes"`
	SensitiveAttributes []any          `json:"sensitive_attributes"`
}

type stateResource struct {
	Mode      string          `json:"mode"`
	Type      string          `json:"type"`
	Name      string          `json:"name"`
	Provider  string          `json:"provider"`
	Instances []stateInstance `json:"instances"`
}

func (c *conformanceCheck) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	t := c.t
	if req.State == nil || req.State.Values == nil || req.State.Values.RootModule == nil {
		resp.Error = fmt.Errorf("no state")
		return
	}
	versions := map[string]int64{}
	for _, sr := range servedResources(t) {
		versions[sr.typeName] = sr.schema.Version
	}
	byName := map[string]*confInstance{}
	for _, in := range c.instances {
		byName[in.name] = in
	}
	// build a state file from the state's values; skip selects instances to
	// leave out, conv converts one (nil = as is)
	build := func(skip func(r *tfjson.StateResource, in *confInstance) bool, conv func(r *tfjson.StateResource, in *confInstance) (int64, map[string]any)) string {
		var rs []stateResource
		for _, r := range req.State.Values.RootModule.Resources {
			if r.Mode != tfjson.ManagedResourceMode {
				continue
			}
			in := byName[r.Name]
			if r.Type != c.sr.typeName {
				in = nil
			}
			if skip != nil && skip(r, in) {
				continue
			}
			ver, attrs := versions[r.Type], r.AttributeValues
			if conv != nil {
				if v, a := conv(r, in); a != nil {
					ver, attrs = v, a
				}
			}
			rs = append(rs, stateResource{Mode: "managed", Type: r.Type, Name: r.Name,
				Provider:  `provider["registry.terraform.io/pgtf/postgresql"]`,
				Instances: []stateInstance{{SchemaVersion: ver, Attributes: attrs, SensitiveAttributes: []any{}}}})
		}
		b, err := json.MarshalIndent(map[string]any{
			"version": 4, "terraform_version": "1.11.4", "serial": 1, "lineage": "00000000-0000-0000-0000-00000000c0f0",
			"outputs": map[string]any{}, "resources": rs,
		}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	var errs []string

	// import → empty plan
	var imports strings.Builder
	for _, r := range req.State.Values.RootModule.Resources {
		in := byName[r.Name]
		if r.Type != c.sr.typeName || in == nil {
			continue
		}
		if in.noImport != "" {
			t.Logf("import check skipped for %s (%s): %s", r.Address, strings.Join(in.covers, ", "), in.noImport)
			continue
		}
		id := fmt.Sprint(r.AttributeValues["id"])
		if c.ct.importID != nil {
			id = c.ct.importID(r.AttributeValues)
		}
		fmt.Fprintf(&imports, "import {\n  to = %s\n  id = %s\n}\n", r.Address, acctest.QuoteHCL(id))
	}
	importState := build(func(r *tfjson.StateResource, in *confInstance) bool { return in != nil && in.noImport == "" }, nil)
	changed, text, err := acctest.PlanChanges(t, c.config+"\n"+imports.String(), importState)
	switch {
	case err != nil:
		errs = append(errs, fmt.Sprintf("import check: %v\n%s", err, planSummary(text)))
	case len(changed) > 0:
		errs = append(errs, fmt.Sprintf("import check: planned changes after import for %s:\n%s", strings.Join(changed, "; "), planSummary(text)))
	}

	// v0 (cyrilgdn layout) → empty plan
	if c.ct.noV0 != "" {
		t.Logf("v0 check skipped: %s", c.ct.noV0)
	} else if c.prior == nil {
		t.Logf("v0 check skipped: %s has no prior schema version (cyrilgdn had no such resource)", c.sr.typeName)
	} else {
		v0State := build(nil, func(r *tfjson.StateResource, in *confInstance) (int64, map[string]any) {
			if in == nil {
				return 0, nil
			}
			if in.noV0 != "" {
				t.Logf("v0 check skipped for %s (%s): %s", r.Address, strings.Join(in.covers, ", "), in.noV0)
				return 0, nil
			}
			v0 := map[string]any{}
			for n := range c.prior.Attributes {
				v0[n] = r.AttributeValues[n]
			}
			for n := range c.prior.Blocks {
				v0[n] = r.AttributeValues[n]
			}
			if c.ct.v0 != nil {
				c.ct.v0(v0, r.AttributeValues)
			}
			return 0, v0
		})
		changed, text, err := acctest.PlanChanges(t, c.config, v0State)
		switch {
		case err != nil:
			errs = append(errs, fmt.Sprintf("v0 check: %v\n%s", err, planSummary(text)))
		case len(changed) > 0:
			errs = append(errs, fmt.Sprintf("v0 check: planned changes over the cyrilgdn-layout state for %s:\n%s", strings.Join(changed, "; "), planSummary(text)))
		}
	}
	if len(errs) > 0 {
		resp.Error = fmt.Errorf("%s", strings.Join(errs, "\n\n"))
	}
}

// planSummary keeps the part of terraform's output that matters: the planned
// actions, or the error.
func planSummary(out string) string {
	for _, marker := range []string{"Terraform will perform the following actions", "Error:"} {
		if i := strings.Index(out, marker); i >= 0 {
			return out[i:]
		}
	}
	return out
}

// helpers for v0 fixups

func cstr(v any) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

func cstrList(v any) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, e := range l {
		out = append(out, cstr(e))
	}
	return out
}

// nullToEmpty replaces null strings by "" (cyrilgdn stored unset strings as "").
func nullToEmpty(m map[string]any, names ...string) {
	for _, n := range names {
		if m[n] == nil {
			m[n] = ""
		}
	}
}

// nullToFalse replaces null booleans by false (cyrilgdn stored unset flags as false).
func nullToFalse(m map[string]any, names ...string) {
	for _, n := range names {
		if m[n] == nil {
			m[n] = false
		}
	}
}
