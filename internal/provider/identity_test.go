package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

// Every resource has an identity schema built from attributes of its own,
// with at least one attribute an import needs.
func TestEveryResourceHasIdentity(t *testing.T) {
	ctx := context.Background()
	for _, f := range (&pgProvider{}).Resources(ctx) {
		r := f()
		var mr resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "postgresql"}, &mr)
		ri, ok := r.(resource.ResourceWithIdentity)
		if !ok {
			t.Errorf("%s has no identity", mr.TypeName)
			continue
		}
		if !mr.ResourceBehavior.MutableIdentity {
			t.Errorf("%s: identity not declared mutable (renames in place change it)", mr.TypeName)
		}
		var resp resource.IdentitySchemaResponse
		ri.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &resp)
		if resp.Diagnostics.HasError() {
			t.Errorf("%s: %v", mr.TypeName, resp.Diagnostics)
			continue
		}
		required := 0
		for _, a := range resp.IdentitySchema.Attributes {
			if a.IsRequiredForImport() {
				required++
			}
		}
		if len(resp.IdentitySchema.Attributes) == 0 || required == 0 {
			t.Errorf("%s: identity %v has no attribute required for import", mr.TypeName, resp.IdentitySchema.Attributes)
		}
	}
}

// TestAccIdentity creates one object of every resource type (the base
// configuration of the conformance suite), checks that the identity holds the
// state's values of its attributes, and imports the object by identity (an
// `import` block with `identity`), which must plan no change (in managed mode,
// an update of what the admin cannot read, for the types whose conformance
// says so) and give the same identity. Terraform 1.12 and later.
func TestAccIdentity(t *testing.T) {
	acctest.PreCheck(t)
	acctest.RequireCLIFeature(t, acctest.FeatureImportBlockIdentity)
	forEachConformanceType(t, func(t *testing.T, sr servedResource, ct confType) {
		prefix := strings.ReplaceAll(acctest.RandName("id"), "-", "_")
		n := confNames{P: prefix, Admin: acctest.AdminUser(), Conninfo: acctest.Conninfo(prefix + "_pub")}
		if ct.setup != nil {
			ct.setup(t, n)
		}
		var cfg strings.Builder
		cfg.WriteString(renderTemplate(t, ct.prereqs, n))
		n.I = prefix + "_0"
		n.V = identityVars[sr.typeName]
		if ct.perInstance != "" {
			cfg.WriteString(renderTemplate(t, ct.perInstance, n))
		}
		fmt.Fprintf(&cfg, "resource %q \"x\" {\n%s\n}\n", sr.typeName, renderTemplate(t, ct.body, n))
		config := acctest.ProviderBlock + cfg.String()
		addr := sr.typeName + ".x"

		var checks []statecheck.StateCheck
		for _, a := range sr.res.(tfkit.Identified).IdentityAttributes() {
			checks = append(checks, statecheck.ExpectIdentityValueMatchesState(addr, tfjsonpath.New(a)))
		}
		importStep := tfresource.TestStep{Config: config, ResourceName: addr, ImportState: true, ImportStateKind: tfresource.ImportBlockWithResourceIdentity}
		if ct.managedNoImport != "" && acctest.Managed() {
			// The import by identity still finds the object and gives the same
			// identity, but what the managed admin cannot read
			// (ct.managedNoImport: a subscription's conninfo) is set again by an
			// update in place.
			importStep.ExpectNonEmptyPlan = true
			importStep.ImportPlanChecks.PreApply = []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)}
		}
		tfresource.Test(t, tfresource.TestCase{
			PreCheck:                 func() { acctest.PreCheck(t) },
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			Steps: []tfresource.TestStep{
				{Config: config, ConfigStateChecks: checks},
				importStep,
			},
		})
	})
}

// The page of every resource names its identity attributes (the docs are
// written by hand there: tfplugindocs renders identity only with Terraform
// 1.12 or later on PATH) and shows an import by identity.
func TestDocsNameIdentityAttributes(t *testing.T) {
	ctx := context.Background()
	for _, f := range (&pgProvider{}).Resources(ctx) {
		r := f()
		var mr resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "postgresql"}, &mr)
		kind := strings.TrimPrefix(mr.TypeName, "postgresql_")
		b, err := os.ReadFile(filepath.Join("..", "..", "docs", "resources", kind+".md"))
		if err != nil {
			t.Fatal(err)
		}
		page := string(b)
		i := strings.Index(page, "by its identity instead of an ID")
		if i < 0 || !strings.Contains(page, "identity = {") {
			t.Errorf("%s: the page shows no import by identity", mr.TypeName)
			continue
		}
		para, _, _ := strings.Cut(page[i:], "\n\n")
		for _, a := range r.(tfkit.Identified).IdentityAttributes() {
			if !strings.Contains(para, "`"+a+"`") {
				t.Errorf("%s: the identity paragraph does not name %q: %s", mr.TypeName, a, para)
			}
		}
	}
}

// identityVars are the vars a conformance body needs to name one object
// (postgresql_table_rls: which of the test's tables).
var identityVars = map[string]map[string]string{
	"postgresql_table_rls":    {"t": "0"},
	"postgresql_object_owner": {"db": "1"},
}
