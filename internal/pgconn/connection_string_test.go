package pgconn

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

func TestConnectionString(t *testing.T) {
	ctx := context.Background()
	c := NewClient(Config{Host: "db1.example, db2.example", Ports: []int{5432, 5433}, Database: "postgres", Username: "admin", Password: "admin pass",
		SSLMode: "verify-full", SSLRootCert: "/etc/ca.pem", TargetSessionAttrs: "read-write", ConnectTimeout: 10 * time.Second,
		ClientCert: &ClientCert{Cert: "/c.pem", Key: "/k.pem"}, ExposeCredentials: true})
	defer c.Close()

	own, err := c.ConnectionString(ctx, ConnectionParams{Database: "app"})
	if err != nil {
		t.Fatal(err)
	}
	if own.Username != "admin" || own.Password != "admin pass" || own.PasswordSource != "provider" {
		t.Errorf("own role: %q %q %q", own.Username, own.Password, own.PasswordSource)
	}
	wantKW := `host='db1.example,db2.example' port='5432,5433' dbname='app' user='admin' password='admin pass' sslmode='verify-full' sslrootcert='/etc/ca.pem' ` +
		`sslcert='/c.pem' sslkey='/k.pem' target_session_attrs='read-write' connect_timeout='10'`
	if own.Keyword != wantKW {
		t.Errorf("keyword form:\n got %s\nwant %s", own.Keyword, wantKW)
	}
	wantURL := "postgresql://admin:admin%20pass@db1.example:5432,db2.example:5433/app?connect_timeout=10&sslcert=%2Fc.pem&sslkey=%2Fk.pem&sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem&target_session_attrs=read-write"
	if own.URL != wantURL {
		t.Errorf("URL form:\n got %s\nwant %s", own.URL, wantURL)
	}
	// both forms mean the same to a libpq-compatible parser (which reads the
	// certificate files at once: none here)
	plain := NewClient(Config{Host: "db1.example,db2.example", Ports: []int{5432, 5433}, Database: "postgres", Username: "admin", Password: "admin pass", SSLMode: "disable", ExposeCredentials: true})
	defer plain.Close()
	parsed, err := plain.ConnectionString(ctx, ConnectionParams{Database: "app"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{parsed.Keyword, parsed.URL} {
		pc, err := pgx.ParseConfig(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if pc.Host != "db1.example" || pc.Port != 5432 || pc.Database != "app" || pc.User != "admin" || pc.Password != "admin pass" || len(pc.Fallbacks) != 1 || pc.Fallbacks[0].Port != 5433 {
			t.Errorf("%s parses as %s:%d/%s %s %q (+%d)", s, pc.Host, pc.Port, pc.Database, pc.User, pc.Password, len(pc.Fallbacks))
		}
	}

	// another role: its password, or none
	other, err := c.ConnectionString(ctx, ConnectionParams{Username: "app", Password: `it's "odd"`, ApplicationName: "migrations"})
	if err != nil {
		t.Fatal(err)
	}
	if other.Database != "postgres" || other.PasswordSource != "argument" || !strings.Contains(other.Keyword, `password='it\'s "odd"'`) || !strings.Contains(other.Keyword, "application_name='migrations'") {
		t.Errorf("another role: %+v", other)
	}
	odd, err := plain.ConnectionString(ctx, ConnectionParams{Username: "app", Password: `it's "odd"`, ApplicationName: "migrations"})
	if err != nil {
		t.Fatal(err)
	}
	if pc, err := pgx.ParseConfig(odd.URL); err != nil || pc.Password != `it's "odd"` || pc.RuntimeParams["application_name"] != "migrations" {
		t.Errorf("another role's URL %s: %v", odd.URL, err)
	}
	none, err := c.ConnectionString(ctx, ConnectionParams{Username: "reader"})
	if err != nil {
		t.Fatal(err)
	}
	if none.Password != "" || strings.Contains(none.Keyword, "password") || strings.Contains(none.URL, ":@") {
		t.Errorf("no password expected: %s / %s", none.Keyword, none.URL)
	}

	// a socket directory, an inline certificate
	s := NewClient(Config{Host: "/var/run/postgresql", Port: 5432, Database: "postgres", Username: "me", SSLMode: "disable",
		ClientCert: &ClientCert{Cert: "-----BEGIN", Key: "-----BEGIN", Inline: true}, ExposeCredentials: true})
	defer s.Close()
	sock, err := s.ConnectionString(ctx, ConnectionParams{})
	if err != nil {
		t.Fatal(err)
	}
	if sock.URL != "postgresql://me@/postgres?host=%2Fvar%2Frun%2Fpostgresql&port=5432&sslmode=disable" {
		t.Errorf("socket URL: %s", sock.URL)
	}
	if len(sock.Warnings) != 1 || !strings.Contains(sock.Warnings[0], "inline") || strings.Contains(sock.Keyword, "sslcert") {
		t.Errorf("inline certificate: %v / %s", sock.Warnings, sock.Keyword)
	}

	// unknown provider arguments: no string
	u := NewClient(Config{Host: "h", Port: 5432, Unknown: []string{"host"}})
	defer u.Close()
	if _, err := u.ConnectionString(ctx, ConnectionParams{}); err == nil || !strings.Contains(err.Error(), "not known yet") {
		t.Errorf("unknown host: %v", err)
	}
}

// TestConnectionString_regressionOwnCredentialsWithoutOptIn: the provider's
// own password (or cloud token) and client certificate went to any module
// that asked for a connection string of the provider's role (issue 40). Without
// expose_credentials they are left out, with a warning saying why; a password
// given as an argument, and other roles, are unaffected.
func TestConnectionString_regressionOwnCredentialsWithoutOptIn(t *testing.T) {
	ctx := context.Background()
	c := NewClient(Config{Host: "db.example", Port: 5432, Database: "postgres", Username: "admin", Password: "admin pass", SSLMode: "verify-full",
		ClientCert: &ClientCert{Cert: "/c.pem", Key: "/k.pem"}})
	defer c.Close()
	for _, p := range []ConnectionParams{{}, {Username: "admin"}} {
		own, err := c.ConnectionString(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if own.Password != "" || own.PasswordSource != "" || strings.Contains(own.Keyword, "admin pass") || strings.Contains(own.URL, "admin%20pass") {
			t.Errorf("%+v: the provider's password was handed out: %s / %s", p, own.Keyword, own.URL)
		}
		if strings.Contains(own.Keyword, "sslkey") || strings.Contains(own.URL, "sslkey") || strings.Contains(own.Keyword, "sslcert") {
			t.Errorf("%+v: the provider's client certificate was handed out: %s", p, own.Keyword)
		}
		joined := strings.Join(own.Warnings, "\n")
		if !strings.Contains(joined, "expose_credentials = true") || !strings.Contains(joined, `role "admin"`) || !strings.Contains(joined, "sslkey are left out") {
			t.Errorf("%+v: warnings do not say why: %v", p, own.Warnings)
		}
	}
	// a password the configuration gives is the configuration's choice
	given, err := c.ConnectionString(ctx, ConnectionParams{Password: "given"})
	if err != nil {
		t.Fatal(err)
	}
	if given.Password != "given" || given.PasswordSource != "argument" {
		t.Errorf("a given password: %+v", given)
	}
	// another role never gets the provider's password, opted in or not
	other, err := c.ConnectionString(ctx, ConnectionParams{Username: "app"})
	if err != nil {
		t.Fatal(err)
	}
	if other.Password != "" || strings.Contains(other.Keyword, "password") {
		t.Errorf("another role: %s", other.Keyword)
	}
}
