package pgconn

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPoolConfigPassfile guards that a password file (PGPASSFILE, ~/.pgpass)
// is used when the provider has no password, and that a configured password wins.
func TestPoolConfigPassfile(t *testing.T) {
	dir := t.TempDir()
	passfile := filepath.Join(dir, "pgpass")
	if err := os.WriteFile(passfile, []byte("db.example:5433:*:alice:from-passfile\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PGPASSFILE", passfile)
	t.Setenv("PGPASSWORD", "")

	cfg := Config{Host: "db.example", Port: 5433, Database: "postgres", Username: "alice", SSLMode: "disable"}
	pc, err := NewClient(cfg).poolConfig("app")
	if err != nil {
		t.Fatal(err)
	}
	if got := pc.ConnConfig.Password; got != "from-passfile" {
		t.Errorf("password without provider password = %q, want the password file's", got)
	}

	cfg.Password = "configured"
	pc, err = NewClient(cfg).poolConfig("app")
	if err != nil {
		t.Fatal(err)
	}
	if got := pc.ConnConfig.Password; got != "configured" {
		t.Errorf("password with provider password = %q, want %q", got, "configured")
	}
}
