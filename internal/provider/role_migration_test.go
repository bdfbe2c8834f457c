package provider

import (
	"crypto/md5" //nolint:gosec // PostgreSQL legacy md5 verifiers
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

// Tests of what postgresql_role shows users who switch from cyrilgdn and use
// it as they did (issue 30). They run real Terraform in a working directory of
// their own (acctest.Workdir): the warnings a plan prints are what they test.

const (
	wantRolesStay        = "Memberships stay: roles is not set"
	wantPasswordChanged  = "Password changed outside Terraform"
	wantPasswordDiffers  = "Password differs from the role's"
	wantPasswordUnconfig = "Password not in the configuration"
)

// cyrilgdnRoleState is a state holding roles in the layout cyrilgdn 1.25 and
// earlier wrote (schema version 0, no password_wo*, password "" when none),
// each given as name -> attributes overriding the defaults.
func cyrilgdnRoleState(t *testing.T, roles map[string]map[string]any) string {
	t.Helper()
	var resources []map[string]any
	for addr, over := range roles {
		attrs := map[string]any{
			"assume_role": "", "bypass_row_level_security": false, "connection_limit": -1, "create_database": false,
			"create_role": false, "encrypted": nil, "encrypted_password": true, "idle_in_transaction_session_timeout": 0,
			"inherit": true, "login": false, "password": "", "replication": false, "roles": []any{}, "search_path": []any{},
			"skip_drop_role": false, "skip_reassign_owned": false, "statement_timeout": 0, "superuser": false, "valid_until": "infinity",
		}
		for k, v := range over {
			attrs[k] = v
		}
		attrs["id"] = attrs["name"]
		resources = append(resources, map[string]any{
			"mode": "managed", "type": "postgresql_role", "name": addr,
			"provider": `provider["registry.terraform.io/pgtf/postgresql"]`,
			"instances": []any{map[string]any{
				"schema_version": 0, "attributes": attrs, "private": "bnVsbA==",
				"sensitive_attributes": []any{[]any{map[string]any{"type": "get_attr", "value": "password"}}},
			}},
		})
	}
	b, err := json.MarshalIndent(map[string]any{
		"version": 4, "terraform_version": "1.11.4", "serial": 3, "lineage": "4a3c0f9e-0000-4000-8000-00000000c0de",
		"outputs": map[string]any{}, "resources": resources,
	}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// planText is what a plan printed, on one line: Terraform wraps the text of
// warnings.
func planText(w *acctest.Workdir, body string) (string, bool) {
	out, changes := w.Plan(body)
	return strings.Join(strings.Fields(out), " "), changes
}

func memberOf(t *testing.T, role, group string) bool {
	return acctest.QueryBool(t, "", `SELECT pg_has_role($1, $2, 'MEMBER') AND EXISTS (SELECT 1 FROM pg_auth_members m
		JOIN pg_roles r ON r.oid = m.member JOIN pg_roles g ON g.oid = m.roleid WHERE r.rolname = $1 AND g.rolname = $2)`, role, group)
}

// TestAccRole_regressionRolesRemovedKeepsMembershipsSilently guards issue 30
// (8): removing roles from a postgresql_role keeps the memberships (so that
// postgresql_role and postgresql_grant_role do not fight), where cyrilgdn
// revoked them; a user who "removed a group from a user" that way kept the
// privilege without a word. The plan now warns, naming the memberships that
// stay and how to revoke them, once: the apply records that roles is no longer
// managed. A state upgraded from cyrilgdn whose roles listed memberships
// warns the same way.
func TestAccRole_regressionRolesRemovedKeepsMembershipsSilently(t *testing.T) {
	acctest.PreCheck(t)
	t.Parallel()
	name := acctest.RandName("rolesgone")
	grp, other := name+"_grp", name+"_other"
	w := acctest.NewWorkdir(t)
	groups := fmt.Sprintf(`
resource "postgresql_role" "grp" { name = %q }
resource "postgresql_role" "other" { name = %q }
`, grp, other)
	withRoles := groups + fmt.Sprintf(`
resource "postgresql_role" "app" {
  name  = %q
  roles = [postgresql_role.grp.name]
}`, name)
	withoutRoles := groups + fmt.Sprintf(`
resource "postgresql_role" "app" {
  name = %q
}`, name)
	w.Apply(withRoles)
	// a membership the configuration never set is not named
	acctest.AdminExec(t, "", fmt.Sprintf(`GRANT %q TO %q`, other, name))

	out, changes := planText(w, withoutRoles)
	if !changes || !strings.Contains(out, wantRolesStay) || !strings.Contains(out, fmt.Sprintf("%q stays a member of %q.", name, grp)) ||
		!strings.Contains(out, "roles = []") {
		t.Fatalf("removing roles: want a warning naming the membership that stays and an update, got (changes %v):\n%s", changes, out)
	}
	w.Apply(withoutRoles)
	if !memberOf(t, name, grp) {
		t.Fatalf("%s is no longer a member of %s: removing roles must not revoke", name, grp)
	}
	if out, changes := planText(w, withoutRoles); changes || strings.Contains(out, wantRolesStay) {
		t.Fatalf("after the apply, want an empty plan without the warning, got (changes %v):\n%s", changes, out)
	}

	// The same from a state cyrilgdn wrote: roles listed the membership.
	acctest.AdminExec(t, "", fmt.Sprintf(`REVOKE %q FROM %q`, other, name))
	w.SetState(cyrilgdnRoleState(t, map[string]map[string]any{
		"grp": {"name": grp}, "other": {"name": other},
		"app": {"name": name, "roles": []any{grp}},
	}))
	if out, changes := planText(w, withRoles); changes || strings.Contains(out, "Warning: Memberships") {
		t.Fatalf("cyrilgdn state, roles still configured: want an empty plan, got (changes %v):\n%s", changes, out)
	}
	out, changes = planText(w, withoutRoles)
	if !changes || !strings.Contains(out, wantRolesStay) || !strings.Contains(out, fmt.Sprintf("%q stays a member of %q.", name, grp)) {
		t.Fatalf("cyrilgdn state, roles removed: want the warning and an update, got (changes %v):\n%s", changes, out)
	}
}

// TestAccRole_regressionPasswordChangedOutsideSilentlyReset guards issue 30
// (9): a password changed outside Terraform (by a rotation script, as
// superuser admin) was planned back on every run without a word, so every
// apply put back a password the application no longer had. The repair stays;
// the plan now warns, naming the role and pointing at ignore_changes and
// password_wo, and ignore_changes = [password] plans nothing.
func TestAccRole_regressionPasswordChangedOutsideSilentlyReset(t *testing.T) {
	acctest.PreCheck(t)
	acctest.SkipIfManaged(t, "only a superuser can read the password verifiers that tell a password changed outside Terraform")
	t.Parallel()
	name := acctest.RandName("pwout")
	w := acctest.NewWorkdir(t)
	cfg := func(lifecycle string) string {
		return fmt.Sprintf(`
resource "postgresql_role" "app" {
  name     = %q
  login    = true
  password = "configured-pw-1"
  %s
}`, name, lifecycle)
	}
	w.Apply(cfg(""))
	if out, changes := planText(w, cfg("")); changes || strings.Contains(out, wantPasswordChanged) {
		t.Fatalf("unchanged password: want an empty plan, got:\n%s", out)
	}
	// as a script would, but with the verifier (CheckLogin wants no plaintext in the server log)
	rotatedPw := "rotated-by-a-script-" + name
	rotated, err := pg.ScramVerifier(rotatedPw)
	if err != nil {
		t.Fatal(err)
	}
	acctest.Exec(t, "", fmt.Sprintf(`ALTER ROLE %q PASSWORD '%s'`, name, rotated))

	out, changes := planText(w, cfg(""))
	for _, want := range []string{wantPasswordChanged, fmt.Sprintf("role %q", name), "sets it back", "ignore_changes = [password]", "password_wo"} {
		if !changes || !strings.Contains(out, want) {
			t.Fatalf("password changed outside: want an update and a warning with %q, got (changes %v):\n%s", want, changes, out)
		}
	}
	ignored := cfg("lifecycle {\n    ignore_changes = [password]\n  }")
	if out, changes := planText(w, ignored); changes || strings.Contains(out, wantPasswordChanged) {
		t.Fatalf("ignore_changes = [password]: want an empty plan without the warning, got (changes %v):\n%s", changes, out)
	}
	w.Apply(ignored)
	if err := acctest.CheckLogin(t, name, rotatedPw); err != nil {
		t.Fatalf("with ignore_changes the rotated password must stay: %v", err)
	}
	// without ignore_changes the apply repairs it, and the warning goes away
	w.Apply(cfg(""))
	if err := acctest.CheckLogin(t, name, "configured-pw-1"); err != nil {
		t.Fatal(err)
	}
	if out, changes := planText(w, cfg("")); changes || strings.Contains(out, wantPasswordChanged) {
		t.Fatalf("after the repair: want an empty plan, got (changes %v):\n%s", changes, out)
	}
}

// TestAccRole_regressionVerifierInCyrilgdnState guards issue 30 (1): before
// 1.26 cyrilgdn read the role's password verifier into the state at import
// (and at a refresh as superuser of a role whose password it did not set),
// and planned an update of every such role whose configuration sets the
// password. The configured password is compared with that verifier: the same
// password plans nothing (SCRAM and md5 verifiers alike); another one plans
// the update with a warning that says so; no password in the configuration
// plans its removal with a warning; a password changed outside Terraform since
// (superuser) is reported as such.
func TestAccRole_regressionVerifierInCyrilgdnState(t *testing.T) {
	acctest.PreCheck(t)
	t.Parallel()
	name := acctest.RandName("pwver")
	md5Role := name + "_md5"
	sum := md5.Sum([]byte("md5-pw-1" + md5Role)) //nolint:gosec // PostgreSQL's md5 verifier
	md5Verifier := "md5" + hex.EncodeToString(sum[:])
	scram, err := pg.ScramVerifier("scram-pw-1")
	if err != nil {
		t.Fatal(err)
	}
	acctest.AdminExec(t, "",
		fmt.Sprintf(`CREATE ROLE %q LOGIN PASSWORD '%s'`, name, scram),
		fmt.Sprintf(`CREATE ROLE %q LOGIN PASSWORD '%s'`, md5Role, md5Verifier))
	w := acctest.NewWorkdir(t)
	w.SetState(cyrilgdnRoleState(t, map[string]map[string]any{
		"scram": {"name": name, "login": true, "password": scram},
		"md5":   {"name": md5Role, "login": true, "password": md5Verifier},
	}))
	cfg := func(scramPw, md5Pw string) string {
		b := fmt.Sprintf("resource \"postgresql_role\" \"scram\" {\n  name  = %q\n  login = true\n", name)
		if scramPw != "" {
			b += fmt.Sprintf("  password = %q\n", scramPw)
		}
		b += fmt.Sprintf("}\nresource \"postgresql_role\" \"md5\" {\n  name     = %q\n  login    = true\n  password = %q\n}\n", md5Role, md5Pw)
		return b
	}
	if out, changes := planText(w, cfg("scram-pw-1", "md5-pw-1")); changes || strings.Contains(out, "Warning: Password") {
		t.Fatalf("configured passwords match the verifiers: want an empty plan, got (changes %v):\n%s", changes, out)
	}
	out, changes := planText(w, cfg("scram-pw-2", "md5-pw-1"))
	if !changes || !strings.Contains(out, wantPasswordDiffers) || !strings.Contains(out, fmt.Sprintf("role %q", name)) {
		t.Fatalf("another password: want an update with a warning, got (changes %v):\n%s", changes, out)
	}
	if out, changes := planText(w, cfg("", "md5-pw-1")); !changes || !strings.Contains(out, wantPasswordUnconfig) || !strings.Contains(out, "ignore_changes") {
		t.Fatalf("no password configured: want an update with a warning, got (changes %v):\n%s", changes, out)
	}
	if !acctest.Managed() {
		rotated, err := pg.ScramVerifier("rotated-pw")
		if err != nil {
			t.Fatal(err)
		}
		acctest.Exec(t, "", fmt.Sprintf(`ALTER ROLE %q PASSWORD '%s'`, name, rotated))
		if out, changes := planText(w, cfg("scram-pw-1", "md5-pw-1")); !changes || !strings.Contains(out, wantPasswordChanged) {
			t.Fatalf("password changed outside since cyrilgdn read it: want an update with the warning, got (changes %v):\n%s", changes, out)
		}
	}
	w.Apply(cfg("scram-pw-1", "md5-pw-1"))
	if err := acctest.CheckLogin(t, name, "scram-pw-1"); err != nil {
		t.Fatal(err)
	}
	if out, changes := planText(w, cfg("scram-pw-1", "md5-pw-1")); changes {
		t.Fatalf("after the apply: want an empty plan, got:\n%s", out)
	}
}

// TestAccRole_passwordVerifierConfigured: a configured password that already
// is a verifier (as cyrilgdn users may write, to keep the plaintext out of the
// configuration) is stored as given, as cyrilgdn sent it: the plaintext it was
// made from logs in, and the next plan is empty.
func TestAccRole_passwordVerifierConfigured(t *testing.T) {
	acctest.PreCheck(t)
	t.Parallel()
	name := acctest.RandName("pwgiven")
	v, err := pg.ScramVerifier("behind-the-verifier")
	if err != nil {
		t.Fatal(err)
	}
	w := acctest.NewWorkdir(t)
	cfg := fmt.Sprintf("resource \"postgresql_role\" \"r\" {\n  name     = %q\n  login    = true\n  password = %q\n}\n", name, v)
	w.Apply(cfg)
	if err := acctest.CheckLogin(t, name, "behind-the-verifier"); err != nil {
		t.Fatal(err)
	}
	if out, changes := planText(w, cfg); changes {
		t.Fatalf("want an empty plan, got:\n%s", out)
	}
}

// TestAccRole_emptyPasswordOverCyrilgdnState: `password = ""` (how modules
// spell "no password") over a state from cyrilgdn 1.25 or earlier, which held
// "" for it and upgrades to null, plans one update of password that sets
// nothing: a password the role got elsewhere stays. Without the attribute the
// plan is empty.
func TestAccRole_emptyPasswordOverCyrilgdnState(t *testing.T) {
	acctest.PreCheck(t)
	t.Parallel()
	name := acctest.RandName("pwempty")
	pw := "set-elsewhere-" + name
	v, err := pg.ScramVerifier(pw)
	if err != nil {
		t.Fatal(err)
	}
	acctest.AdminExec(t, "", fmt.Sprintf(`CREATE ROLE %q LOGIN PASSWORD '%s'`, name, v))
	w := acctest.NewWorkdir(t)
	w.SetState(cyrilgdnRoleState(t, map[string]map[string]any{"r": {"name": name, "login": true, "password": ""}}))
	unset := fmt.Sprintf("resource \"postgresql_role\" \"r\" {\n  name  = %q\n  login = true\n}\n", name)
	empty := fmt.Sprintf("resource \"postgresql_role\" \"r\" {\n  name     = %q\n  login    = true\n  password = \"\"\n}\n", name)
	if out, changes := planText(w, unset); changes {
		t.Fatalf("password unset: want an empty plan, got:\n%s", out)
	}
	w.Apply(empty)
	if err := acctest.CheckLogin(t, name, pw); err != nil {
		t.Fatalf(`password = "" must not remove the role's password: %v`, err)
	}
	if out, changes := planText(w, empty); changes {
		t.Fatalf("after the apply: want an empty plan, got:\n%s", out)
	}
}
