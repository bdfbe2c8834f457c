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

// rotatePassword changes the password of role to password as a rotation job
// would, as the admin (the managed admin may: it created the role), sending
// the verifier (CheckLogin wants no plaintext in the server log).
func rotatePassword(t *testing.T, role, password string) {
	t.Helper()
	v, err := pg.ScramVerifier(password)
	if err != nil {
		t.Fatal(err)
	}
	acctest.AdminExec(t, "", fmt.Sprintf(`ALTER ROLE %s PASSWORD '%s'`, acctest.QI(role), v))
}

// rotatePasswordFunc is rotatePassword as a PreConfig.
func rotatePasswordFunc(t *testing.T, role, password string) func() {
	return func() { rotatePassword(t, role, password) }
}

// passwordRoleConfig is a login role with a password and, when drift is not
// "", password_drift; extra goes in the block as it is.
func passwordRoleConfig(name, password, drift, extra string) string {
	b := fmt.Sprintf("resource \"postgresql_role\" \"app\" {\n  name     = %q\n  login    = true\n  password = %q\n", name, password)
	if drift != "" {
		b += fmt.Sprintf("  password_drift = %q\n", drift)
	}
	return b + extra + "}\n"
}

// TestAccRole_regressionRotatedPasswordPutBack guards issue 41 (1): a
// published users module creates roles with an initial password, and a job
// rotates each password afterwards (keeping it in a vault). cyrilgdn never
// compared passwords, so its plans stayed empty; this provider, as
// superuser, read the verifier and planned the initial password back on every
// run, while as the managed admin (which cannot read verifiers) it did not:
// one configuration, two meanings. Now, in both modes, the rotated password
// stays and the plan is empty (as superuser it warns, naming the role);
// changing the configured password still sets it; password_drift = "repair"
// puts a rotated password back (as superuser: the managed admin cannot see
// the change, and the plan says so); "ignore" stops comparing.
func TestAccRole_regressionRotatedPasswordPutBack(t *testing.T) {
	acctest.PreCheck(t)
	t.Parallel()
	name := acctest.RandName("pwrot")
	w := acctest.NewWorkdir(t)
	w.Apply(passwordRoleConfig(name, "initial-pw-1", "", ""))
	if err := acctest.CheckLogin(t, name, "initial-pw-1"); err != nil {
		t.Fatal(err)
	}

	// the job rotates it: the plan is empty, and the rotated password stays
	rotatePassword(t, name, "rotated-by-a-job-1-"+name)
	out, changes := planText(w, passwordRoleConfig(name, "initial-pw-1", "", ""))
	if changes {
		t.Fatalf("password rotated outside Terraform: want an empty plan, got:\n%s", out)
	}
	if !acctest.Managed() {
		for _, want := range []string{wantPasswordChanged, fmt.Sprintf("role %q", name), "left as it is", `password_drift = "repair"`} {
			if !strings.Contains(out, want) {
				t.Fatalf("rotated password as superuser: want a warning with %q, got:\n%s", want, out)
			}
		}
	} else if strings.Contains(out, "Warning: Password") {
		t.Fatalf("managed admin (no verifiers): want no password warning, got:\n%s", out)
	}
	w.Apply(passwordRoleConfig(name, "initial-pw-1", "", ""))
	if err := acctest.CheckLogin(t, name, "rotated-by-a-job-1-"+name); err != nil {
		t.Fatalf("an apply must leave the rotated password as it is: %v", err)
	}

	// a change of the configured password is set
	out, changes = planText(w, passwordRoleConfig(name, "configured-pw-2", "", ""))
	if !changes || strings.Contains(out, wantPasswordChanged) {
		t.Fatalf("configured password changed: want an update without the warning, got (changes %v):\n%s", changes, out)
	}
	w.Apply(passwordRoleConfig(name, "configured-pw-2", "", ""))
	if err := acctest.CheckLogin(t, name, "configured-pw-2"); err != nil {
		t.Fatal(err)
	}
	if out, changes := planText(w, passwordRoleConfig(name, "configured-pw-2", "", "")); changes || strings.Contains(out, wantPasswordChanged) {
		t.Fatalf("after setting it: want an empty plan without the warning, got (changes %v):\n%s", changes, out)
	}

	// the opt-in repair puts a rotated password back
	rotatePassword(t, name, "rotated-by-a-job-2-"+name)
	repair := passwordRoleConfig(name, "configured-pw-2", "repair", "")
	out, changes = planText(w, repair)
	want := []string{wantPasswordChanged, fmt.Sprintf("role %q", name), "sets it back"}
	if acctest.Managed() {
		want = []string{"Password changes cannot be seen", "not one"}
	}
	for _, s := range want {
		if !changes || !strings.Contains(out, s) {
			t.Fatalf(`password_drift = "repair": want an update and a warning with %q, got (changes %v):`+"\n%s", s, changes, out)
		}
	}
	w.Apply(repair)
	if acctest.Managed() {
		if err := acctest.CheckLogin(t, name, "rotated-by-a-job-2-"+name); err != nil {
			t.Fatalf("managed admin: nothing can be repaired, the rotated password stays: %v", err)
		}
		return
	}
	if err := acctest.CheckLogin(t, name, "configured-pw-2"); err != nil {
		t.Fatalf(`password_drift = "repair" must set the configured password back: %v`, err)
	}
	if out, changes := planText(w, repair); changes || strings.Contains(out, wantPasswordChanged) {
		t.Fatalf("after the repair: want an empty plan without the warning, got (changes %v):\n%s", changes, out)
	}
	// rotated again under "repair": planned back at once
	rotatePassword(t, name, "rotated-by-a-job-3-"+name)
	if out, changes := planText(w, repair); !changes || !strings.Contains(out, "sets it back") {
		t.Fatalf("rotated under repair: want an update with the warning, got (changes %v):\n%s", changes, out)
	}
	w.Apply(repair)
	if err := acctest.CheckLogin(t, name, "configured-pw-2"); err != nil {
		t.Fatal(err)
	}

	// "ignore": not compared, no warning
	ignore := passwordRoleConfig(name, "configured-pw-2", "ignore", "")
	w.Apply(ignore)
	rotatePassword(t, name, "rotated-by-a-job-4-"+name)
	if out, changes := planText(w, ignore); changes || strings.Contains(out, "Warning: Password") {
		t.Fatalf(`password_drift = "ignore": want an empty plan without a warning, got (changes %v):`+"\n%s", changes, out)
	}
}

// TestAccRole_regressionPasswordChangedOutsideSilentlyReset guards issue 30
// (9): a password changed outside Terraform (by a rotation script, as
// superuser admin) was planned back on every run without a word, so every
// apply put back a password the application no longer had. Since issue 41
// that repair is the opt-in password_drift = "repair" (the default leaves the
// password as it is: TestAccRole_regressionRotatedPasswordPutBack); with it
// the plan warns, naming the role and pointing at the default and
// password_wo, and ignore_changes = [password] plans nothing.
func TestAccRole_regressionPasswordChangedOutsideSilentlyReset(t *testing.T) {
	acctest.PreCheck(t)
	acctest.SkipIfManaged(t, "only a superuser can read the password verifiers that tell a password changed outside Terraform")
	t.Parallel()
	name := acctest.RandName("pwout")
	w := acctest.NewWorkdir(t)
	cfg := func(lifecycle string) string {
		return passwordRoleConfig(name, "configured-pw-1", "repair", lifecycle)
	}
	w.Apply(cfg(""))
	if out, changes := planText(w, cfg("")); changes || strings.Contains(out, wantPasswordChanged) {
		t.Fatalf("unchanged password: want an empty plan, got:\n%s", out)
	}
	rotatedPw := "rotated-by-a-script-" + name
	rotatePassword(t, name, rotatedPw)

	out, changes := planText(w, cfg(""))
	for _, want := range []string{wantPasswordChanged, fmt.Sprintf("role %q", name), "sets it back", `password_drift = "report"`, "password_wo"} {
		if !changes || !strings.Contains(out, want) {
			t.Fatalf("password changed outside: want an update and a warning with %q, got (changes %v):\n%s", want, changes, out)
		}
	}
	ignored := cfg("  lifecycle {\n    ignore_changes = [password]\n  }\n")
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
// (superuser) is reported as such, and left as it is
// (password_drift = "report", the default; issue 41).
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
		if out, changes := planText(w, cfg("scram-pw-1", "md5-pw-1")); changes || !strings.Contains(out, wantPasswordChanged) || !strings.Contains(out, "left as it is") {
			t.Fatalf("password changed outside since cyrilgdn read it: want an empty plan with the warning, got (changes %v):\n%s", changes, out)
		}
	}
	w.Apply(cfg("scram-pw-1", "md5-pw-1"))
	loginPw := "scram-pw-1"
	if !acctest.Managed() {
		loginPw = "rotated-pw" // left as it is
	}
	if err := acctest.CheckLogin(t, name, loginPw); err != nil {
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
