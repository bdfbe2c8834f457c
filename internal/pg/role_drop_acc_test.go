package pg

import (
	"context"
	"testing"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// A role that holds privileges WITH GRANT OPTION, given by the owner of the
// object, is dropped by a managed admin: DROP OWNED needs the privileges of
// the dropped role, so the admin holds them, and PostgreSQL revokes as the
// first role of the admin's memberships (in OID order) that holds every grant
// option on the object (select_best_grantor): the dropped role itself when it
// is older than the owner. That revoke found nothing the dropped role had
// granted, the owner's grant stayed, and DROP ROLE failed with "role ...
// cannot be dropped because some objects depend on it: privileges for schema
// ..." (TestAccSchema_regressionAddPolicyRoleDroppedSameApply failed one run
// in three as the managed admin on PostgreSQL 15 and 18, as the roles of its
// configuration are created in parallel: here the grantee is made first).
func TestAccDropRole_regressionGrantOptionHolderPickedAsGrantor(t *testing.T) {
	c := testClient(t, 5, "")
	managedOnly(t)
	grantee, owner, schema := acctest.RandName("dr_gopt"), acctest.RandName("dr_owner"), acctest.RandName("dr_schema")
	acctest.AdminExec(t, "", "CREATE ROLE "+acctest.QI(grantee))
	acctest.AdminExec(t, "", "CREATE ROLE "+acctest.QI(owner))
	t.Cleanup(func() {
		acctest.Exec(t, "", "DROP SCHEMA IF EXISTS "+acctest.QI(schema), "DROP ROLE IF EXISTS "+acctest.QI(grantee), "DROP ROLE IF EXISTS "+acctest.QI(owner))
	})
	// as the superuser: the grantor recorded is the owner
	acctest.Exec(t, "", "CREATE SCHEMA "+acctest.QI(schema)+" AUTHORIZATION "+acctest.QI(owner),
		"GRANT USAGE, CREATE ON SCHEMA "+acctest.QI(schema)+" TO "+acctest.QI(grantee)+" WITH GRANT OPTION")
	if !acctest.QueryBool(t, "", "SELECT $1::regrole::oid < $2::regrole::oid", acctest.QI(grantee), acctest.QI(owner)) {
		t.Fatal("the grantee is not older than the owner: the test is not about what it says")
	}
	if err := c.DropRole(context.Background(), grantee, false); err != nil {
		t.Fatalf("dropping a role that holds grant options the owner gave: %v", err)
	}
	if acctest.QueryBool(t, "", "SELECT exists(SELECT 1 FROM pg_roles WHERE rolname = $1)", grantee) {
		t.Fatalf("role %q still exists", grantee)
	}
}
