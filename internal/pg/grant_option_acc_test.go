package pg

import (
	"context"
	"strings"
	"testing"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// grantOptionQuery tells, for every object type a grant takes, the
// privileges the managed admin holds WITH GRANT OPTION on objects of a
// superuser from those it holds without (the query of each type runs on the
// server, so a misspelt function or privilege fails here).
func TestAccGrantOptionQuery_everyObjectType(t *testing.T) {
	c := testClient(t, 2, "grant-option")
	if !acctest.Managed() {
		t.Skip("concerns the managed (non-superuser) admin: a superuser holds every grant option")
	}
	db := acctest.RandName("go")
	admin := acctest.QI(acctest.AdminUser())
	param := strings.ReplaceAll(db, "-", "_") + ".p"
	stmts := []string{
		"CREATE EXTENSION postgres_fdw",
		"CREATE SERVER srv FOREIGN DATA WRAPPER postgres_fdw",
		"CREATE SCHEMA s",
		"CREATE TABLE s.t (a int, b int)",
		"CREATE SEQUENCE s.q",
		"CREATE FUNCTION s.f() RETURNS int LANGUAGE sql AS 'SELECT 1'",
		"CREATE PROCEDURE s.p() LANGUAGE sql AS ''",
		"CREATE TYPE s.e AS ENUM ('x')",
		"CREATE DOMAIN s.d AS int",
		"SELECT lo_create(4242)",
		"GRANT CONNECT ON DATABASE " + acctest.QI(db) + " TO " + admin + " WITH GRANT OPTION",
		"GRANT TEMPORARY ON DATABASE " + acctest.QI(db) + " TO " + admin,
		"GRANT USAGE ON SCHEMA s TO " + admin + " WITH GRANT OPTION",
		"GRANT CREATE ON SCHEMA s TO " + admin,
		"GRANT SELECT ON s.t TO " + admin + " WITH GRANT OPTION",
		"GRANT INSERT ON s.t TO " + admin,
		"GRANT UPDATE (b) ON s.t TO " + admin + " WITH GRANT OPTION",
		"GRANT REFERENCES (b) ON s.t TO " + admin,
		"GRANT USAGE ON SEQUENCE s.q TO " + admin + " WITH GRANT OPTION",
		"GRANT SELECT ON SEQUENCE s.q TO " + admin,
		"REVOKE EXECUTE ON FUNCTION s.f() FROM PUBLIC",
		"GRANT EXECUTE ON FUNCTION s.f() TO " + admin + " WITH GRANT OPTION",
		"GRANT USAGE ON FOREIGN DATA WRAPPER postgres_fdw TO " + admin + " WITH GRANT OPTION",
		"GRANT USAGE ON FOREIGN SERVER srv TO " + admin,
		"GRANT USAGE ON TYPE s.e TO " + admin + " WITH GRANT OPTION",
		"GRANT USAGE ON DOMAIN s.d TO " + admin,
		"GRANT USAGE ON LANGUAGE sql TO " + admin + " WITH GRANT OPTION",
		"GRANT SELECT ON LARGE OBJECT 4242 TO " + admin + " WITH GRANT OPTION",
		"GRANT UPDATE ON LARGE OBJECT 4242 TO " + admin,
	}
	acctest.TempDatabase(t, db, stmts...)
	type check struct {
		objectType, oid, name, privilege string
		want                             bool
	}
	checks := []check{
		{ObjDatabase, "(SELECT oid FROM pg_database WHERE datname = current_database())", "", "CONNECT", true},
		{ObjDatabase, "(SELECT oid FROM pg_database WHERE datname = current_database())", "", "TEMPORARY", false},
		{ObjSchema, "'s'::regnamespace", "", "USAGE", true},
		{ObjSchema, "'s'::regnamespace", "", "CREATE", false},
		{ObjTable, "'s.t'::regclass", "", "SELECT", true},
		{ObjTable, "'s.t'::regclass", "", "INSERT", false},
		{ObjColumn, "'s.t'::regclass", "b", "UPDATE", true},
		{ObjColumn, "'s.t'::regclass", "b", "REFERENCES", false},
		{ObjColumn, "'s.t'::regclass", "a", "SELECT", true}, // from the table's
		{ObjSequence, "'s.q'::regclass", "", "USAGE", true},
		{ObjSequence, "'s.q'::regclass", "", "SELECT", false},
		{ObjFunction, "'s.f()'::regprocedure", "", "EXECUTE", true},
		{ObjProcedure, "'s.p()'::regprocedure", "", "EXECUTE", false}, // PUBLIC's, which has no grant option
		{ObjFDW, "(SELECT oid FROM pg_foreign_data_wrapper WHERE fdwname = 'postgres_fdw')", "", "USAGE", true},
		{ObjServer, "(SELECT oid FROM pg_foreign_server WHERE srvname = 'srv')", "", "USAGE", false},
		{ObjType, "'s.e'::regtype", "", "USAGE", true},
		{ObjDomain, "'s.d'::regtype", "", "USAGE", false},
		{ObjLanguage, "(SELECT oid FROM pg_language WHERE lanname = 'sql')", "", "USAGE", true},
		{ObjLanguage, "(SELECT oid FROM pg_language WHERE lanname = 'plpgsql')", "", "USAGE", false},
		{ObjTablespace, "(SELECT oid FROM pg_tablespace WHERE spcname = 'pg_default')", "", "CREATE", false},
		{ObjLargeObj, "4242::oid", "", "SELECT", true},
		{ObjLargeObj, "4242::oid", "", "UPDATE", false},
	}
	if acctest.ServerMajor(t) >= 15 {
		acctest.Exec(t, "", "GRANT SET ON PARAMETER "+acctest.QI(param)+" TO "+admin+" WITH GRANT OPTION",
			"GRANT ALTER SYSTEM ON PARAMETER "+acctest.QI(param)+" TO "+admin)
		t.Cleanup(func() { acctest.Exec(t, "", "REVOKE ALL ON PARAMETER "+acctest.QI(param)+" FROM "+admin) })
		checks = append(checks,
			check{ObjParameter, "0::oid", param, "SET", true},
			check{ObjParameter, "0::oid", param, "ALTER SYSTEM", false},
			check{ObjParameter, "0::oid", "work_mem", "SET", false})
	}
	ctx := context.Background()
	for _, ch := range checks {
		var got bool
		err := c.Read(ctx, db, func(ctx context.Context, q Querier) error {
			var oid uint32
			if err := q.QueryRow(ctx, "SELECT "+ch.oid+"::oid").Scan(&oid); err != nil {
				return err
			}
			return q.QueryRow(ctx, grantOptionQuery(ch.objectType), []uint32{oid}, []string{ch.privilege}, []string{ch.name}).Scan(&got)
		})
		if err != nil {
			t.Errorf("%s %s %s: %v", ch.objectType, ch.oid, ch.privilege, err)
		} else if got != ch.want {
			t.Errorf("%s %s %s %s: holds it with grant option: %v, want %v", ch.objectType, ch.oid, ch.name, ch.privilege, got, ch.want)
		}
	}
}

// canGrantItself: a managed admin may grant itself the roles it created, and
// on PostgreSQL 16+ no others.
func TestAccGrantOption_canGrantItself(t *testing.T) {
	c := testClient(t, 1, "grant-option")
	if !acctest.Managed() {
		t.Skip("concerns the managed (non-superuser) admin")
	}
	mine, foreign := acctest.RandName("go_mine"), acctest.RandName("go_foreign")
	acctest.OwnerRole(t, mine)
	acctest.ForeignOwnerRole(t, foreign)
	for role, want := range map[string]bool{mine: true, foreign: acctest.ServerMajor(t) < 16} {
		var got bool
		err := c.Read(context.Background(), "", func(ctx context.Context, q Querier) error {
			var oid uint32
			if err := q.QueryRow(ctx, "SELECT oid FROM pg_roles WHERE rolname = $1", role).Scan(&oid); err != nil {
				return err
			}
			var err error
			got, err = canGrantItself(ctx, q, oid)
			return err
		})
		if err != nil || got != want {
			t.Errorf("role %q: canGrantItself %v (%v), want %v", role, got, err, want)
		}
	}
}
