package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// Regression tests of issue 30, one per resource (the database's is in
// database_resource_test.go): arguments configured "" mean unset, as in
// cyrilgdn/postgresql (emptyCase).

// expectRow is a Check that query (in db) returns want.
func expectRow(t *testing.T, db, what, want, query string, args ...any) func(*terraform.State) error {
	return func(*terraform.State) error {
		if got := acctest.QueryString(t, db, query, args...); got != want {
			return fmt.Errorf("%s: got %q, unset gives %q", what, got, want)
		}
		return nil
	}
}

func runEmptyCase(t *testing.T, c emptyCase, preCheck func(), destroyed func(*terraform.State) error) {
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			if preCheck != nil {
				preCheck()
			}
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             destroyed,
		Steps:                    c.steps(t),
	})
}

// Before, "" was refused at validate (in every test below): "Invalid
// PostgreSQL name" for names, "Invalid Attribute Value Match" for slot_name.
// Configurations written for cyrilgdn/postgresql (module variables defaulting
// to "") could not be planned.

// A schema with database = "" and owner = "": refused as an invalid name.
func TestAccSchema_regressionEmptyOwnerRejected(t *testing.T) {
	acctest.PreCheck(t)
	name := acctest.RandName("schempty")
	db, admin := acctest.DefaultDatabase(), acctest.AdminUser()
	addr := "postgresql_schema.test"
	runEmptyCase(t, emptyCase{
		addr: addr, attrs: []string{"database", "owner"}, identity: "oid",
		server:   map[string]string{"database": db, "owner": admin},
		importID: db + "." + name,
		body: func(set map[string]string) string {
			return hclBlock(addr, []string{fmt.Sprintf("name = %q", name)}, set)
		},
		check: expectRow(t, db, "owner of schema "+name, admin, "SELECT pg_get_userbyid(nspowner)::text FROM pg_namespace WHERE nspname = $1", name),
		v0:    map[string]any{"database": db, "drop_cascade": false, "id": db + "." + name, "if_not_exists": true, "name": name, "owner": admin, "policy": []any{}},
	}, nil, func(*terraform.State) error {
		if schemaExists(t, db, name) {
			return fmt.Errorf("schema %s still exists", name)
		}
		return nil
	})
}

// A role with valid_until = "" (no expiry, as in cyrilgdn/postgresql). Not a
// regression test: "" worked before as well; it guards the read of "".
func TestAccRole_emptyValidUntilIsUnset(t *testing.T) {
	acctest.PreCheck(t)
	name := acctest.RandName("roleempty")
	addr := "postgresql_role.test"
	runEmptyCase(t, emptyCase{
		addr: addr, attrs: []string{"valid_until"}, identity: "oid",
		server:   map[string]string{"valid_until": "infinity"},
		importID: name,
		body: func(set map[string]string) string {
			return hclBlock(addr, []string{fmt.Sprintf("name = %q", name)}, set)
		},
		check: expectRow(t, "", "expiry of role "+name, "infinity", "SELECT coalesce(rolvaliduntil::text, 'infinity') FROM pg_roles WHERE rolname = $1", name),
		v0: map[string]any{"assume_role": "", "bypass_row_level_security": false, "connection_limit": -1, "create_database": false, "create_role": false,
			"encrypted": nil, "encrypted_password": true, "id": name, "idle_in_transaction_session_timeout": 0, "inherit": true, "login": false, "name": name,
			"password": nil, "password_wo": nil, "password_wo_version": nil, "replication": false, "roles": nil, "search_path": nil, "skip_drop_role": false,
			"skip_reassign_owned": false, "statement_timeout": 0, "superuser": false, "valid_until": "infinity"},
	}, nil, checkRoleGone(t, name))
}

// An extension with database, schema and version "": refused as invalid names.
func TestAccExtension_regressionEmptySchemaRejected(t *testing.T) {
	acctest.PreCheck(t)
	const ext = "fuzzystrmatch" // trusted, relocatable, used by no other test
	db := acctest.DefaultDatabase()
	version := acctest.QueryString(t, "", "SELECT default_version FROM pg_available_extensions WHERE name = $1", ext)
	addr := "postgresql_extension.test"
	runEmptyCase(t, emptyCase{
		addr: addr, attrs: []string{"database", "schema", "version"}, identity: "oid",
		server:   map[string]string{"database": db, "schema": "public", "version": version},
		importID: db + "." + ext,
		body: func(set map[string]string) string {
			return hclBlock(addr, []string{fmt.Sprintf("name = %q", ext)}, set)
		},
		check: expectRow(t, db, "schema and version of extension "+ext, "public "+version,
			"SELECT n.nspname::text || ' ' || e.extversion FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = $1", ext),
		v0: map[string]any{"create_cascade": false, "database": db, "drop_cascade": false, "id": db + "." + ext, "name": ext, "schema": "public", "version": version},
	}, nil, acctest.CheckGone(t, db, "extension", "SELECT exists(SELECT 1 FROM pg_extension WHERE extname = $1)", ext))
}

// A function with schema, database, returns and language "": refused as
// invalid names.
func TestAccFunction_regressionEmptySchemaRejected(t *testing.T) {
	acctest.PreCheck(t)
	name := strings.ReplaceAll(acctest.RandName("fnempty"), "-", "_")
	db := acctest.DefaultDatabase()
	addr := "postgresql_function.test"
	const body = "BEGIN END"
	id := db + ".public." + name + "()"
	runEmptyCase(t, emptyCase{
		addr: addr, attrs: []string{"schema", "database", "returns", "language"}, identity: "oid",
		server:   map[string]string{"schema": "public", "database": db, "returns": "void", "language": "plpgsql"},
		importID: id,
		body: func(set map[string]string) string {
			return hclBlock(addr, []string{fmt.Sprintf("name = %q", name), fmt.Sprintf("body = %q", body)}, set)
		},
		check: expectRow(t, db, "function "+name, "public void plpgsql",
			"SELECT n.nspname::text || ' ' || format_type(p.prorettype, NULL) || ' ' || l.lanname::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace JOIN pg_language l ON l.oid = p.prolang WHERE p.proname = $1", name),
		v0: map[string]any{"arg": []any{}, "body": body, "database": db, "drop_cascade": false, "id": id, "language": "plpgsql", "name": name,
			"parallel": "UNSAFE", "returns": "void", "schema": "public", "security_definer": false, "strict": false, "volatility": "VOLATILE"},
	}, nil, acctest.CheckGone(t, db, "function", "SELECT exists(SELECT 1 FROM pg_proc WHERE proname = $1)", name))
}

// A publication with database and owner "": refused as invalid names.
func TestAccPublication_regressionEmptyOwnerRejected(t *testing.T) {
	acctest.PreCheck(t)
	name := strings.ReplaceAll(acctest.RandName("pubempty"), "-", "_")
	db, admin := acctest.DefaultDatabase(), acctest.AdminUser()
	addr := "postgresql_publication.test"
	runEmptyCase(t, emptyCase{
		addr: addr, attrs: []string{"database", "owner"}, identity: "oid",
		server:   map[string]string{"database": db, "owner": admin},
		importID: db + "." + name,
		body: func(set map[string]string) string {
			return hclBlock(addr, []string{fmt.Sprintf("name = %q", name)}, set)
		},
		check: expectRow(t, db, "owner of publication "+name, admin, "SELECT pg_get_userbyid(pubowner)::text FROM pg_publication WHERE pubname = $1", name),
		v0: map[string]any{"all_tables": false, "database": db, "drop_cascade": false, "id": db + "." + name, "name": name, "owner": admin,
			"publish_param": []any{"insert", "update", "delete", "truncate"}, "publish_via_partition_root_param": false, "tables": []any{}},
	}, nil, acctest.CheckGone(t, db, "publication", "SELECT exists(SELECT 1 FROM pg_publication WHERE pubname = $1)", name))
}

// A logical replication slot with database "": refused as an invalid name.
func TestAccReplicationSlot_regressionEmptyDatabaseRejected(t *testing.T) {
	acctest.PreCheck(t)
	skipUnlessReplication(t)
	name := strings.ReplaceAll(acctest.RandName("rsempty"), "-", "_")
	db := acctest.DefaultDatabase()
	addr := "postgresql_replication_slot.test"
	runEmptyCase(t, emptyCase{
		addr: addr, attrs: []string{"database"},
		server:   map[string]string{"database": db},
		importID: db + "." + name,
		body: func(set map[string]string) string {
			return hclBlock(addr, []string{fmt.Sprintf("name = %q", name), `plugin = "test_decoding"`}, set)
		},
		check: expectRow(t, "", "database of slot "+name, db, "SELECT database::text FROM pg_replication_slots WHERE slot_name = $1", name),
		v0:    map[string]any{"database": db, "id": db + "." + name, "name": name, "plugin": "test_decoding"},
	}, nil, checkSlotsGone(t, name))
}

// A foreign server with server_owner "": refused as an invalid name. cyrilgdn's servers live in the
// provider's database: the wrapper is installed there for the test.
func TestAccServer_regressionEmptyOwnerRejected(t *testing.T) {
	acctest.PreCheck(t)
	name := acctest.RandName("srvempty")
	db, admin := acctest.DefaultDatabase(), acctest.AdminUser()
	addr := "postgresql_server.test"
	runEmptyCase(t, emptyCase{
		addr: addr, attrs: []string{"server_owner"}, identity: "oid",
		server:   map[string]string{"server_owner": admin},
		importID: name,
		body: func(set map[string]string) string {
			return hclBlock(addr, []string{fmt.Sprintf("server_name = %q", name), `fdw_name = "file_fdw"`}, set)
		},
		check: expectRow(t, db, "owner of server "+name, admin, "SELECT pg_get_userbyid(srvowner)::text FROM pg_foreign_server WHERE srvname = $1", name),
		v0: map[string]any{"drop_cascade": false, "fdw_name": "file_fdw", "id": name, "options": nil, "server_name": name, "server_owner": admin,
			"server_type": "", "server_version": ""},
	}, func() {
		acctest.Exec(t, db, "CREATE EXTENSION IF NOT EXISTS file_fdw", "GRANT USAGE ON FOREIGN DATA WRAPPER file_fdw TO PUBLIC")
		t.Cleanup(func() { acctest.Exec(t, db, "DROP EXTENSION IF EXISTS file_fdw") })
	}, checkServersGone(t, db, name))
}

// A subscription with database and slot_name "": refused as invalid names.
func TestAccSubscription_regressionEmptySlotNameRejected(t *testing.T) {
	acctest.PreCheck(t)
	skipSubscriptionIfManagedBefore16(t)
	pubDB, _, name, _ := subscriptionTestNames()
	db := acctest.DefaultDatabase()
	conn := acctest.Conninfo(pubDB)
	addr := "postgresql_subscription.test"
	runEmptyCase(t, emptyCase{
		addr: addr, attrs: []string{"database", "slot_name"}, identity: "oid",
		server:   map[string]string{"database": db, "slot_name": name},
		importID: db + "." + name,
		body: func(set map[string]string) string {
			return hclBlock(addr, []string{fmt.Sprintf("name = %q", name), fmt.Sprintf("conninfo = %q", conn), `publications = ["pub_e"]`, "create_slot = false"}, set)
		},
		check: expectRow(t, db, "slot of subscription "+name, name, "SELECT subslotname::text FROM pg_subscription WHERE subname = $1", name),
		// as the managed admin, the import cannot read conninfo (superuser
		// only): the next apply sets it again (see subscriptionAfterImport)
		importUpdates: acctest.Managed(),
		v0: map[string]any{"conninfo": conn, "create_slot": false, "database": db, "id": db + "." + name, "name": name,
			"publications": []any{"pub_e"}, "slot_name": ""},
	}, func() {
		acctest.Database(t, pubDB, acctest.AdminUser())
		acctest.Exec(t, pubDB, "CREATE PUBLICATION pub_e", fmt.Sprintf("SELECT pg_create_logical_replication_slot('%s', 'pgoutput')", name))
		t.Cleanup(func() {
			acctest.Exec(t, "", fmt.Sprintf("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '%s' AND NOT active", name))
		})
	}, acctest.CheckGone(t, db, "subscription", "SELECT exists(SELECT 1 FROM pg_subscription WHERE subname = $1)", name))
}
