package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// skipWithoutDummyLabelProvider skips when the test cluster has not loaded the
// label provider "dummy" (testdata/seclabel, preloaded by scripts/testdb once built).
func skipWithoutDummyLabelProvider(t *testing.T) {
	t.Helper()
	acctest.PreCheck(t)
	if !strings.Contains(acctest.QueryString(t, "", "SELECT current_setting('shared_preload_libraries')"), "dummy_seclabel") {
		major := acctest.ServerMajor(t)
		t.Skipf("the security label provider \"dummy\" is not loaded: it is built with `make -C testdata/seclabel` against the "+
			"headers of the server it runs in (PostgreSQL %d: pg_config and Debian's postgresql-server-dev-%d; the server "+
			"packages of the npm registry ship none), and scripts/testdb preloads it into a cluster of that version", major, major)
	}
}

func TestAccSecurityLabel_basic(t *testing.T) {
	db := acctest.RandName("sldb")
	role := acctest.RandName("slrole")
	schemaName, table := `Lbl "S"`, "t.1"
	addrRole, addrTable, addrSchema := "postgresql_security_label.role", "postgresql_security_label.table", "postgresql_security_label.schema"
	cfg := func(roleLabel, tableName, tableLabel string) string {
		d, s, q := acctest.QuoteHCL(db), acctest.QuoteHCL(schemaName), acctest.QuoteHCL
		return acctest.Config(`
resource "postgresql_role" "r" { name = %[1]q }
resource "postgresql_role" "r2" { name = "%[1]s_2" }
`, role) +
			acctest.Resource("postgresql_security_label", "role", "label_provider", `"dummy"`, "object_type", `"role"`, "object_name", "postgresql_role.r.name",
				"label", q(roleLabel)) +
			acctest.Resource("postgresql_security_label", "table", "database", d, "label_provider", `"dummy"`, "object_type", `"TABLE"`, "schema", s,
				"object_name", q(tableName), "label", q(tableLabel)) +
			acctest.Resource("postgresql_security_label", "schema", "database", d, "label_provider", `"dummy"`, "object_type", `"schema"`, "object_name", s,
				"label", `"unclassified"`)
	}
	qt := pgconn.QuoteQualified(schemaName, table)
	labelOf := func(dbname, query string, args ...any) string {
		return acctest.QueryString(t, dbname, "SELECT coalesce(("+query+"), '<none>')", args...)
	}
	roleLabelQ := "SELECT label FROM pg_shseclabel s JOIN pg_roles r ON r.oid = s.objoid WHERE s.provider = 'dummy' AND r.rolname = $1"
	tableLabelQ := "SELECT label FROM pg_seclabel WHERE provider = 'dummy' AND objoid = $1::regclass AND objsubid = 0"
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			skipWithoutDummyLabelProvider(t)
			admin := pgconn.QuoteIdent(acctest.AdminUser())
			acctest.TempDatabase(t, db,
				"CREATE SCHEMA "+pgconn.QuoteIdent(schemaName)+" AUTHORIZATION "+admin,
				"CREATE TABLE "+qt+" (id int)", "ALTER TABLE "+qt+" OWNER TO "+admin,
				"CREATE TABLE "+pgconn.QuoteQualified(schemaName, "other")+" (id int)", "ALTER TABLE "+pgconn.QuoteQualified(schemaName, "other")+" OWNER TO "+admin)
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if n := acctest.QueryString(t, db, "SELECT count(*)::text FROM pg_seclabel"); n != "0" {
				return fmt.Errorf("%s security labels left in %s", n, db)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: cfg("classified", table, "classified"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addrRole, tfjsonpath.New("id"), knownvalue.StringExact("dummy.role."+role)),
					statecheck.ExpectKnownValue(addrTable, tfjsonpath.New("id"), knownvalue.StringExact("dummy.TABLE."+schemaName+"."+table)),
					statecheck.ExpectKnownValue(addrSchema, tfjsonpath.New("database"), knownvalue.StringExact(db)),
				},
				Check: func(*terraform.State) error {
					if got := labelOf("", roleLabelQ, role); got != "classified" {
						return fmt.Errorf("role label = %q", got)
					}
					if got := labelOf(db, tableLabelQ, qt); got != "classified" {
						return fmt.Errorf("table label = %q", got)
					}
					return nil
				},
			},
			{ // the label changes in place
				Config:           cfg("unclassified", table, "unclassified"),
				ConfigPlanChecks: expectUpdate(addrRole, addrTable),
				Check: func(*terraform.State) error {
					if got := labelOf(db, tableLabelQ, qt); got != "unclassified" {
						return fmt.Errorf("table label = %q", got)
					}
					return nil
				},
			},
			{ // cyrilgdn's import ID (its own import was broken)
				ResourceName:      addrRole,
				ImportState:       true,
				ImportStateId:     "dummy.role." + role,
				ImportStateVerify: true,
			},
			{
				ResourceName:      addrTable,
				ImportState:       true,
				ImportStateId:     db + ".dummy.TABLE." + schemaName + "." + table,
				ImportStateVerify: true,
			},
			{ // the quoted form: the table name contains a dot
				ResourceName:      addrTable,
				ImportState:       true,
				ImportStateId:     db + ".dummy.TABLE." + importID(schemaName, table),
				ImportStateVerify: true,
			},
			{ // drift made with SQL is repaired in place
				PreConfig:        acctest.ExecFunc(t, db, "SECURITY LABEL FOR dummy ON TABLE "+qt+" IS 'classified'"),
				Config:           cfg("unclassified", table, "unclassified"),
				ConfigPlanChecks: expectUpdate(addrTable),
			},
			{ // removed behind Terraform's back: set again
				PreConfig:        acctest.ExecFunc(t, "", "SECURITY LABEL FOR dummy ON ROLE "+pgconn.QuoteIdent(role)+" IS NULL"),
				Config:           cfg("unclassified", table, "unclassified"),
				ConfigPlanChecks: expectAction(addrRole, plancheck.ResourceActionCreate),
			},
			{ // another object: replaced, the old label removed
				Config:           cfg("unclassified", "other", "unclassified"),
				ConfigPlanChecks: expectAction(addrTable, plancheck.ResourceActionDestroyBeforeCreate),
				Check: func(*terraform.State) error {
					if got := labelOf(db, tableLabelQ, qt); got != "<none>" {
						return fmt.Errorf("label of the old table = %q", got)
					}
					return nil
				},
			},
		},
	})
}

// Types and domains are found by their SQL name, with or without schema
// (pg_get_object_address takes a type as one name and has no "domain").
func TestAccSecurityLabel_typeAndDomain(t *testing.T) {
	db := acctest.RandName("sltdb")
	typeOrDomainLabel := func(typ, name, label string) string {
		return acctest.Resource("postgresql_security_label", typ, "database", acctest.QuoteHCL(db), "label_provider", `"dummy"`, "object_type", acctest.QuoteHCL(typ),
			"schema", `"s"`, "object_name", acctest.QuoteHCL(name), "label", acctest.QuoteHCL(label))
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			skipWithoutDummyLabelProvider(t)
			admin := acctest.QI(acctest.AdminUser())
			acctest.Database(t, db, acctest.AdminUser())
			acctest.Exec(t, db, `CREATE SCHEMA s AUTHORIZATION `+admin,
				`CREATE TYPE s."T.1" AS (a int)`, `ALTER TYPE s."T.1" OWNER TO `+admin,
				`CREATE DOMAIN s.d AS int`, `ALTER DOMAIN s.d OWNER TO `+admin)
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: acctest.Config("") + typeOrDomainLabel("type", "T.1", "classified") + typeOrDomainLabel("domain", "d", "unclassified"),
			Check: func(*terraform.State) error {
				got := acctest.QueryString(t, db, `SELECT string_agg(label, ',' ORDER BY label) FROM pg_seclabel WHERE objoid IN ('s."T.1"'::regtype, 's.d'::regtype)`)
				if got != "classified,unclassified" {
					return fmt.Errorf("labels = %q", got)
				}
				return nil
			},
		}},
	})
}
