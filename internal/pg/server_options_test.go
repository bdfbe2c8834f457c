package pg

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// Options whose names say they are secret (and every option of a user
// mapping) are rendered through the operation's secrets, and reported.
func TestSensitiveOptionsAreReported(t *testing.T) {
	_, sec := pgconn.WithSecrets(context.Background())
	o := &optionValues{sec: sec}
	stmt := optionsClauseCreate(map[string]string{"host": "db.example", "password": "pw'1", "api_token": "tok-2"}, o)
	if !o.secret {
		t.Fatal("a sensitive option was rendered but not reported")
	}
	if got := sec.Scrub(errors.New(stmt)).Error(); strings.Contains(got, "tok-2") || strings.Contains(got, "pw''1") || !strings.Contains(got, "db.example") {
		t.Errorf("scrubbed clause: %s", got)
	}
}

func TestUserMappingOptionsAreAllSecret(t *testing.T) {
	_, sec := pgconn.WithSecrets(context.Background())
	o := &optionValues{sec: sec, all: true}
	clause := optionsClause(map[string]string{"user": "a"}, map[string]string{"user": "bob", "sslmode": "require"}, o)
	if !o.secret || clause == "" {
		t.Fatalf("clause %q, secret %v", clause, o.secret)
	}
	if got := sec.Scrub(errors.New(clause)).Error(); strings.Contains(got, "bob") || strings.Contains(got, "require") {
		t.Errorf("scrubbed clause still holds values: %s", got)
	}
	o = &optionValues{sec: sec, all: true}
	if clause := optionsClause(map[string]string{"user": "a"}, map[string]string{}, o); o.secret {
		t.Errorf("DROP only (%s) reported as secret", clause)
	}
}
