package provider

import (
	"encoding/base64"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// outputString reads a root output of the applied state.
func outputString(s *terraform.State, name string) (string, error) {
	o, ok := s.RootModule().Outputs[name]
	if !ok {
		return "", fmt.Errorf("no output %q", name)
	}
	v, ok := o.Value.(string)
	if !ok {
		return "", fmt.Errorf("output %q is %T, not a string", name, o.Value)
	}
	return v, nil
}

// quote_ident through Terraform gives the provider's quoting, and PostgreSQL
// reads the result back as the very name (case, spaces, quotes, non-ASCII).
func TestAccProviderFunction_quoteIdent(t *testing.T) {
	acctest.RequireCLIFeature(t, acctest.FeatureProviderFunctions) // Terraform 1.8, OpenTofu 1.7
	name := acctest.RandName("Fn Ident") + ` "q" ü`
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: acctest.Config(`output "q" { value = provider::postgresql::quote_ident(%s) }`, acctest.QuoteHCL(name)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("q", knownvalue.StringExact(pgconn.QuoteIdent(name))),
				},
				Check: func(s *terraform.State) error {
					q, err := outputString(s, "q")
					if err != nil {
						return err
					}
					// The quoted name, spliced into SQL, names exactly this role.
					acctest.Exec(t, "", "CREATE ROLE "+q)
					defer acctest.Exec(t, "", "DROP ROLE "+q)
					if !acctest.QueryBool(t, "", "SELECT EXISTS (SELECT FROM pg_roles WHERE rolname = $1)", name) {
						return fmt.Errorf("CREATE ROLE %s did not create a role named %q", q, name)
					}
					return nil
				},
			},
			{
				Config:      acctest.Config(`output "q" { value = provider::postgresql::quote_ident("%s") }`, "a234567890123456789012345678901234567890123456789012345678901234"),
				ExpectError: funcErr(`Invalid value for "name" parameter: name is 64 bytes long`),
			},
			{
				Config:      acctest.Config(`output "q" { value = provider::postgresql::quote_ident("") }`),
				ExpectError: funcErr(`Invalid value for "name" parameter: name must not be empty`),
			},
		},
	})
}

// quote_literal's result, used as a SQL constant, is the original text.
func TestAccProviderFunction_quoteLiteral(t *testing.T) {
	acctest.RequireCLIFeature(t, acctest.FeatureProviderFunctions) // Terraform 1.8, OpenTofu 1.7
	value := `it's a "test" with \backslash\ and ünïcødé`
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: acctest.Config(`output "l" { value = provider::postgresql::quote_literal(%s) }`, acctest.QuoteHCL(value)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("l", knownvalue.StringExact(`'it''s a "test" with \backslash\ and ünïcødé'`)),
				},
				Check: func(s *terraform.State) error {
					l, err := outputString(s, "l")
					if err != nil {
						return err
					}
					if got := acctest.QueryString(t, "", "SELECT "+l+"::text"); got != value {
						return fmt.Errorf("SELECT %s = %q, want %q", l, got, value)
					}
					return nil
				},
			},
			{
				Config:      acctest.Config(`output "l" { value = provider::postgresql::quote_literal("a\u0000b") }`),
				ExpectError: funcErr(`Invalid value for "value" parameter: value must not contain a NUL byte`),
			},
		},
	})
}

// scram_sha256_verifier's result is a verifier PostgreSQL accepts: a role
// whose password is set to it logs in with the plain password. Its result is
// sensitive when the password is, which Terraform enforces on outputs.
func TestAccProviderFunction_scramSHA256Verifier(t *testing.T) {
	acctest.RequireCLIFeature(t, acctest.FeatureProviderFunctions) // Terraform 1.8, OpenTofu 1.7
	role := acctest.RandName("fn_scram")
	password := "fn-scram-'\"-pässword"
	salt := base64.StdEncoding.EncodeToString([]byte("0123456789abcdef"))
	want, err := pg.ScramVerifierWithSalt(password, []byte("0123456789abcdef"), 4096)
	if err != nil {
		t.Fatal(err)
	}
	call := fmt.Sprintf(`provider::postgresql::scram_sha256_verifier(sensitive(%s), %q, 4096)`, acctest.QuoteHCL(password), salt)
	resource.Test(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.Exec(t, "", "CREATE ROLE "+acctest.QI(role)+" LOGIN")
			t.Cleanup(func() { acctest.Exec(t, "", "DROP ROLE IF EXISTS "+acctest.QI(role)) })
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: acctest.Config(`output "v" {
  value     = %s
  sensitive = true
}`, call),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("v", knownvalue.StringExact(want)),
				},
				Check: func(s *terraform.State) error {
					v, err := outputString(s, "v")
					if err != nil {
						return err
					}
					if err := acctest.CheckLogin(t, role, password); err == nil {
						return fmt.Errorf("role %s logs in before it has a password", role)
					}
					acctest.Exec(t, "", "ALTER ROLE "+acctest.QI(role)+" PASSWORD "+pgconn.QuoteLiteral(v))
					if got := acctest.QueryString(t, "", "SELECT rolpassword FROM pg_authid WHERE rolname = $1", role); got != v {
						return fmt.Errorf("PostgreSQL stored %q, not the verifier %q", got, v)
					}
					if err := acctest.CheckLogin(t, role, password); err != nil {
						return err
					}
					if err := acctest.CheckLogin(t, role, password+"x"); err == nil {
						return fmt.Errorf("role %s logs in with a wrong password", role)
					}
					return nil
				},
			},
			{ // a sensitive password makes the verifier sensitive
				Config:      acctest.Config(`output "v" { value = %s }`, call),
				ExpectError: funcErr(`Output refers to sensitive values`),
			},
			{
				Config:      acctest.Config(`output "v" { value = provider::postgresql::scram_sha256_verifier("pw", "c2FsdA==", 0) }`),
				ExpectError: funcErr(`Invalid value for "iterations" parameter: iterations must be between 1 and`),
			},
			{
				Config:      acctest.Config(`output "v" { value = provider::postgresql::scram_sha256_verifier("pw", "not base64", 4096) }`),
				ExpectError: funcErr(`Invalid value for "salt" parameter: salt must be base64`),
			},
		},
	})
}

// parse_acls / parse_acl read an ACL that PostgreSQL printed (PUBLIC, grant
// options, role names PostgreSQL quotes) into what aclexplode() says, and
// format_acls / format_acl give back text PostgreSQL prints the same way.
func TestAccProviderFunction_parseACL(t *testing.T) {
	acctest.RequireCLIFeature(t, acctest.FeatureProviderFunctions) // Terraform 1.8, OpenTofu 1.7
	acctest.PreCheck(t)
	plain := acctest.RandName("fn_acl")
	odd := acctest.RandName(`Fn ACL "odd"`) + " ü"
	table := acctest.RandName("fn_acl_t")
	acctest.Exec(t, "",
		"CREATE ROLE "+acctest.QI(plain),
		"CREATE ROLE "+acctest.QI(odd),
		"CREATE TABLE public."+acctest.QI(table)+" (a int)",
		"GRANT SELECT, INSERT ON public."+acctest.QI(table)+" TO "+acctest.QI(plain)+" WITH GRANT OPTION",
		"GRANT UPDATE, TRIGGER ON public."+acctest.QI(table)+" TO "+acctest.QI(odd),
		"GRANT SELECT ON public."+acctest.QI(table)+" TO PUBLIC",
	)
	t.Cleanup(func() {
		acctest.Exec(t, "", "DROP TABLE IF EXISTS public."+acctest.QI(table), "DROP ROLE IF EXISTS "+acctest.QI(plain), "DROP ROLE IF EXISTS "+acctest.QI(odd))
	})
	acl := acctest.QueryString(t, "", "SELECT relacl::text FROM pg_class WHERE oid = $1::regclass", "public."+acctest.QI(table))
	oddItem := acctest.QueryString(t, "", "SELECT a::text FROM pg_class, unnest(relacl) a WHERE oid = $1::regclass AND a::text LIKE '%odd%'", "public."+acctest.QI(table))

	// What PostgreSQL says the ACL holds, one object per aclitem, in array order.
	var items []knownvalue.Check
	n, err := strconv.Atoi(acctest.QueryString(t, "", "SELECT cardinality(relacl)::text FROM pg_class WHERE oid = $1::regclass", "public."+acctest.QI(table)))
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		item := acctest.QueryString(t, "", "SELECT relacl[$2]::text FROM pg_class WHERE oid = $1::regclass", "public."+acctest.QI(table), i)
		grantee := acctest.QueryString(t, "", "SELECT coalesce((SELECT rolname FROM pg_roles WHERE oid = e.grantee), 'public') FROM aclexplode(ARRAY[$1::aclitem]) e LIMIT 1", item)
		grantor := acctest.QueryString(t, "", "SELECT g.rolname FROM aclexplode(ARRAY[$1::aclitem]) e JOIN pg_roles g ON g.oid = e.grantor LIMIT 1", item)
		privs := queryStrings(t, "SELECT privilege_type FROM aclexplode(ARRAY[$1::aclitem]) ORDER BY 1", item)
		grantable := queryStrings(t, "SELECT privilege_type FROM aclexplode(ARRAY[$1::aclitem]) WHERE is_grantable ORDER BY 1", item)
		items = append(items, knownvalue.ObjectExact(map[string]knownvalue.Check{
			"grantee": knownvalue.StringExact(grantee), "grantor": knownvalue.StringExact(grantor),
			"privileges": aclPrivList(privs), "grantable": aclPrivList(grantable),
		}))
	}
	if len(items) != 4 { // owner, plain, odd, PUBLIC
		t.Fatalf("relacl %s has %d items, want 4", acl, len(items))
	}
	t.Logf("relacl = %s; odd item = %s", acl, oddItem)
	super := acctest.QueryString(t, "", "SELECT current_user::text")

	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: acctest.Config(`
locals {
  acl = %s
  odd = %s
}
output "items"     { value = provider::postgresql::parse_acls(local.acl) }
output "odd"       { value = provider::postgresql::parse_acl(local.odd) }
output "acl_again" { value = provider::postgresql::format_acls(provider::postgresql::parse_acls(local.acl)) }
output "odd_again" { value = provider::postgresql::format_acl(provider::postgresql::parse_acl(local.odd)) }
output "built" {
  value = provider::postgresql::format_acl({
    grantee    = %s
    grantor    = %s
    privileges = ["trigger", "update", "SELECT"]
    grantable  = ["SELECT"]
  })
}
`, acctest.QuoteHCL(acl), acctest.QuoteHCL(oddItem), acctest.QuoteHCL(odd), acctest.QuoteHCL(super)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("items", knownvalue.ListExact(items)),
					statecheck.ExpectKnownOutputValue("odd", knownvalue.ObjectExact(map[string]knownvalue.Check{
						"grantee": knownvalue.StringExact(odd), "grantor": knownvalue.StringExact(super),
						"privileges": aclPrivList([]string{"TRIGGER", "UPDATE"}), "grantable": aclPrivList(nil),
					})),
					statecheck.ExpectKnownOutputValue("acl_again", knownvalue.StringExact(acl)),
					statecheck.ExpectKnownOutputValue("odd_again", knownvalue.StringExact(oddItem)),
				},
				Check: func(s *terraform.State) error {
					// PostgreSQL reads format_acl's text and prints it back unchanged.
					built, err := outputString(s, "built")
					if err != nil {
						return err
					}
					if got := acctest.QueryString(t, "", "SELECT $1::aclitem::text", built); got != built {
						return fmt.Errorf("PostgreSQL prints %s as %s", built, got)
					}
					if got := acctest.QueryString(t, "", "SELECT $1::aclitem[]::text", acl); got != acl {
						return fmt.Errorf("aclitem[] %s printed as %s", acl, got)
					}
					return nil
				},
			},
			{
				Config:      acctest.Config(`output "x" { value = provider::postgresql::parse_acl("alice=rq/bob") }`),
				ExpectError: funcErr(`Invalid value for "acl" parameter: acl "alice=rq/bob" is not an aclitem:`, `invalid privilege letter 'q'`),
			},
			{
				Config: acctest.Config(`output "x" {
  value = provider::postgresql::format_acl({ grantee = "a", grantor = "b", privileges = ["SELECT"], grantable = ["UPDATE"] })
}`),
				ExpectError: funcErr(`Invalid value for "acl" parameter: acl: grantable privilege "UPDATE" is not in privileges`),
			},
		},
	})
}

// funcErr matches an error holding the parts in order, whatever line wrapping
// Terraform applies to its message.
func funcErr(parts ...string) *regexp.Regexp {
	quoted := make([]string, len(parts))
	for i, p := range parts {
		quoted[i] = strings.Join(strings.Fields(regexp.QuoteMeta(p)), `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(quoted, ".*"))
}

func queryStrings(t *testing.T, query string, args ...any) []string {
	t.Helper()
	s := acctest.QueryString(t, "", "SELECT coalesce(string_agg(x, '|'), '') FROM ("+query+") q(x)", args...)
	if s == "" {
		return nil
	}
	out := strings.Split(s, "|")
	sort.Strings(out)
	return out
}

func aclPrivList(ss []string) knownvalue.Check {
	checks := make([]knownvalue.Check, len(ss))
	for i, s := range ss {
		checks[i] = knownvalue.StringExact(s)
	}
	return knownvalue.ListExact(checks)
}
