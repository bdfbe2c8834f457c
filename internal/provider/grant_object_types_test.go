package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// TestAccGrant_typesLanguagesTablespacesLargeObjects: the object types
// postgresql_grant gained (type and domain, language, tablespace, large
// object): granted, ALL expanded with no diff, changed in place, drift
// repaired, imported, and refused at validation when named wrong. Languages
// and tablespaces belong to the bootstrap superuser: the managed admin gets a
// clear error for them.
func TestAccGrant_typesLanguagesTablespacesLargeObjects(t *testing.T) {
	f := newGrantFixture()
	const lo = "4243"
	super := !acctest.Managed()
	config := func(loPrivs, typeWGO string) string {
		db, sch, role := acctest.QuoteHCL(f.db), acctest.QuoteHCL(f.schema), "postgresql_role.g.name"
		blocks := []grantBlock{
			{name: "types", role: role, database: db, schema: sch, objectType: "type", objects: `["mood", "posint"]`, privileges: `["USAGE"]`, withGrantOption: typeWGO},
			{name: "domain", role: role, database: db, schema: sch, objectType: "domain", objects: `["posint2"]`, privileges: `["ALL"]`},
			{name: "lo", role: role, database: db, objectType: "large_object", objects: `["` + lo + `"]`, privileges: loPrivs},
			{name: "public_type", role: `"public"`, database: db, schema: sch, objectType: "type", objects: `["mood"]`, privileges: `[]`},
		}
		if super {
			blocks = append(blocks,
				grantBlock{name: "language", role: role, database: db, objectType: "language", objects: `["plpgsql"]`, privileges: `["usage"]`},
				grantBlock{name: "tablespace", role: role, database: db, objectType: "tablespace", objects: `["pg_default"]`, privileges: `["ALL"]`})
		}
		return grantBlocks(f.roleConfig(), blocks...)
	}
	typeACL := func(name string) func() string {
		return func() string {
			return f.acl(t, "t.typacl", fmt.Sprintf("pg_type t WHERE t.oid = %s::regtype AND t.typacl IS NOT NULL", quoteLit(acctest.QQ(f.schema, name))))
		}
	}
	loACL := func() string {
		return f.acl(t, "l.lomacl", "pg_largeobject_metadata l WHERE l.oid = "+lo+" AND l.lomacl IS NOT NULL")
	}
	publicMood := func() string {
		return acctest.QueryString(t, f.db, `SELECT coalesce(string_agg(a.privilege_type, ','), '') FROM pg_type t, aclexplode(coalesce(t.typacl, acldefault('T', t.typowner))) a
WHERE t.oid = $1::regtype AND a.grantee = 0`, acctest.QQ(f.schema, "mood"))
	}
	checks := func(loWant, typeWant string) resource.TestCheckFunc {
		c := []resource.TestCheckFunc{
			expectACL(t, "type mood", typeACL("mood"), typeWant),
			expectACL(t, "domain posint (as a type)", typeACL("posint"), typeWant),
			expectACL(t, "domain posint2", typeACL("posint2"), "USAGE"),
			expectACL(t, "large object", loACL, loWant),
			expectACL(t, "PUBLIC on type mood", publicMood, ""),
		}
		if super {
			c = append(c,
				expectACL(t, "language plpgsql", func() string {
					return f.acl(t, "l.lanacl", "pg_language l WHERE l.lanname = 'plpgsql' AND l.lanacl IS NOT NULL")
				}, "USAGE"),
				expectACL(t, "tablespace pg_default", func() string {
					return f.acl(t, "s.spcacl", "pg_tablespace s WHERE s.spcname = 'pg_default' AND s.spcacl IS NOT NULL")
				}, "CREATE"))
		}
		return resource.ComposeTestCheckFunc(c...)
	}
	steps := []resource.TestStep{
		{Config: config(`["ALL"]`, "false"), Check: checks("SELECT,UPDATE", "USAGE")},
		{Config: config(`["ALL"]`, "false"), PlanOnly: true}, // ALL is what the server has: no diff
		{ // in place
			Config: config(`["SELECT"]`, "true"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction("postgresql_grant.lo", plancheck.ResourceActionUpdate),
				plancheck.ExpectResourceAction("postgresql_grant.types", plancheck.ResourceActionUpdate),
			}},
			Check: checks("SELECT", "USAGE*"),
		},
		{ // drift: revoked outside Terraform, granted again
			PreConfig:        acctest.ExecFunc(t, f.db, "REVOKE USAGE ON TYPE "+acctest.QQ(f.schema, "mood")+" FROM "+acctest.QI(f.grantee)),
			Config:           config(`["SELECT"]`, "true"),
			ConfigPlanChecks: expectUpdate("postgresql_grant.types"),
			Check:            checks("SELECT", "USAGE*"),
		},
	}
	for _, name := range []string{"types", "lo", "public_type"} {
		steps = append(steps, resource.TestStep{Config: config(`["SELECT"]`, "true"), ResourceName: "postgresql_grant." + name, ImportState: true, ImportStateVerify: true})
	}
	// ALL is kept as written in the configuration, the server's list is imported
	steps = append(steps, resource.TestStep{Config: config(`["SELECT"]`, "true"), ResourceName: "postgresql_grant.domain", ImportState: true, ImportStateVerify: true,
		ImportStateVerifyIgnore: []string{"privileges"}})
	if super {
		steps = append(steps,
			resource.TestStep{Config: config(`["SELECT"]`, "true"), ResourceName: "postgresql_grant.language", ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"privileges"}},
			resource.TestStep{Config: config(`["SELECT"]`, "true"), ResourceName: "postgresql_grant.tablespace", ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"privileges"}})
	} else {
		// the bootstrap superuser owns languages and pg_default: the managed admin cannot act for it
		steps = append(steps, resource.TestStep{
			Config: config(`["SELECT"]`, "true") + grantBlock{name: "tablespace", role: "postgresql_role.g.name", database: acctest.QuoteHCL(f.db),
				objectType: "tablespace", objects: `["pg_default"]`, privileges: `["CREATE"]`}.String(),
			ExpectError: regexp.MustCompile(`(?s)needs the privileges of role\s+"[^"]+", which owns\s+"pg_default"`),
		})
	}
	// named wrong: refused at validation
	bad := func(b grantBlock) resource.TestStep {
		return resource.TestStep{Config: grantBlocks(f.roleConfig(), b), PlanOnly: true, ExpectError: regexp.MustCompile(`Missing schema|Invalid large object OID|Invalid privilege`)}
	}
	steps = append(steps,
		bad(grantBlock{name: "x", role: "postgresql_role.g.name", database: acctest.QuoteHCL(f.db), objectType: "type", objects: `["mood"]`, privileges: `["USAGE"]`}),
		bad(grantBlock{name: "x", role: "postgresql_role.g.name", database: acctest.QuoteHCL(f.db), objectType: "large_object", objects: `["lo1"]`, privileges: `["SELECT"]`}),
		bad(grantBlock{name: "x", role: "postgresql_role.g.name", database: acctest.QuoteHCL(f.db), objectType: "tablespace", objects: `["pg_default"]`, privileges: `["USAGE"]`}),
		// the last configuration is a valid one, for the destroy
		resource.TestStep{Config: config(`["SELECT"]`, "true"), PlanOnly: true},
	)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.OwnerRole(t, f.owner)
			acctest.Database(t, f.db, f.owner)
			acctest.Exec(t, f.db,
				"CREATE SCHEMA "+acctest.QI(f.schema)+" AUTHORIZATION "+acctest.QI(f.owner),
				"SET ROLE "+acctest.QI(f.owner),
				"CREATE TYPE "+acctest.QQ(f.schema, "mood")+" AS ENUM ('ok', 'meh')",
				"CREATE DOMAIN "+acctest.QQ(f.schema, "posint")+" AS int CHECK (VALUE > 0)",
				"CREATE DOMAIN "+acctest.QQ(f.schema, "posint2")+" AS int CHECK (VALUE > 0)",
				"SELECT lo_create("+lo+")",
				"RESET ROLE")
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, f.grantee),
		Steps:                    steps,
	})
}
