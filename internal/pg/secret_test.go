package pg

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

func TestSecretLiteralIsMaskedInLogs(t *testing.T) {
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)
	ctx, sec := withSecrets(ctx)
	o := &optionValues{sec: sec}
	stmt := "CREATE SERVER s FOREIGN DATA WRAPPER w" + optionsClauseCreate(map[string]string{
		"host": "db.example", "password": "pw'1", "api_token": "tok-2",
	}, o)
	if !o.secret {
		t.Fatal("a sensitive option was rendered but not reported")
	}
	sqlTracer{}.TraceQueryStart(ctx, nil, tracerData(stmt))
	tflog.Debug(logContext(ctx), "failed: "+stmt, map[string]any{"error": "near 'tok-2'"})
	out := buf.String()
	for _, s := range []string{"pw'1", "pw''1", "tok-2"} {
		if strings.Contains(out, s) {
			t.Errorf("log contains %q:\n%s", s, out)
		}
	}
	if !strings.Contains(out, "db.example") {
		t.Errorf("a value that is not secret was masked too:\n%s", out)
	}
	// a statement of another operation is not masked
	buf.Reset()
	tflog.Debug(logContext(context.Background()), "tok-2")
	if buf.Len() > 0 {
		t.Errorf("logging without a logger wrote %q", buf.String())
	}
}

func TestUserMappingOptionsAreAllSecret(t *testing.T) {
	_, sec := withSecrets(context.Background())
	o := &optionValues{sec: sec, all: true}
	clause := optionsClause(map[string]string{"user": "a"}, map[string]string{"user": "bob", "sslmode": "require"}, o)
	if !o.secret || clause == "" {
		t.Fatalf("clause %q, secret %v", clause, o.secret)
	}
	if got := sec.scrubString(clause); strings.Contains(got, "bob") || strings.Contains(got, "require") {
		t.Errorf("scrubbed clause still holds values: %s", got)
	}
	o = &optionValues{sec: sec, all: true}
	if clause := optionsClause(map[string]string{"user": "a"}, map[string]string{}, o); o.secret {
		t.Errorf("DROP only (%s) reported as secret", clause)
	}
}

func TestScrubKeepsSQLState(t *testing.T) {
	_, sec := withSecrets(context.Background())
	sec.addConninfo("host=h password='s3 cr\\'et' dbname=d")
	pgErr := &pgconn.PgError{Code: "42601", Message: `syntax error at "s3 cr'et"`, Detail: "password=s3 cr'et"}
	err := sec.scrub(fmt.Errorf("creating subscription: %w", pgErr))
	if strings.Contains(err.Error(), "s3 cr'et") {
		t.Errorf("error holds the password: %v", err)
	}
	if SQLState(err) != "42601" {
		t.Errorf("SQLSTATE lost: %q", SQLState(err))
	}
	var got *pgconn.PgError
	if !errors.As(err, &got) || strings.Contains(got.Detail, "s3 cr'et") || got == pgErr {
		t.Errorf("the server error is not a scrubbed copy: %+v", got)
	}
	plain := errors.New("nothing secret")
	if sec.scrub(plain) != plain { //nolint:errorlint // the very same error, not a wrapper, is the point
		t.Error("an error without secrets was rewrapped")
	}
}

func TestConninfoPassword(t *testing.T) {
	cases := map[string]string{
		"host=h password=abc dbname=d":            "abc",
		"host=h password = 'a b\\'c' dbname=d":    "a b'c",
		"password=x\\ y":                          "x y",
		"host=h dbname=d":                         "",
		"postgresql://u:p%40ss@h:5432/d":          "p@ss",
		"postgres://u@h/d?password=qp&sslmode=no": "qp",
	}
	for in, want := range cases {
		if got := conninfoPassword(in); got != want {
			t.Errorf("conninfoPassword(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSensitiveServerOption(t *testing.T) {
	for _, n := range []string{"password", "sslpassword", "api_key", "Secret", "token", "credentials", "authorization"} {
		if !SensitiveServerOption(n) {
			t.Errorf("%s not sensitive", n)
		}
	}
	for _, n := range []string{"host", "port", "dbname", "fetch_size", "use_remote_estimate", "keepalives"} {
		if SensitiveServerOption(n) {
			t.Errorf("%s sensitive", n)
		}
	}
}

func tracerData(sql string) pgx.TraceQueryStartData { return pgx.TraceQueryStartData{SQL: sql} }
