package pgconn

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
	ctx, sec := WithSecrets(ctx)
	stmt := "CREATE SERVER s FOREIGN DATA WRAPPER w OPTIONS (host " + QuoteLiteral("db.example") +
		", password " + sec.Literal("pw'1") + ", api_token " + sec.Literal("tok-2") + ")"
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

func TestScrubKeepsSQLState(t *testing.T) {
	_, sec := WithSecrets(context.Background())
	sec.AddConninfo("host=h password='s3 cr\\'et' dbname=d")
	pgErr := &pgconn.PgError{Code: "42601", Message: `syntax error at "s3 cr'et"`, Detail: "password=s3 cr'et"}
	err := sec.Scrub(fmt.Errorf("creating subscription: %w", pgErr))
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
	if sec.Scrub(plain) != plain { //nolint:errorlint // the very same error, not a wrapper, is the point
		t.Error("an error without Secrets was rewrapped")
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
		if got := ConninfoPassword(in); got != want {
			t.Errorf("ConninfoPassword(%q) = %q, want %q", in, got, want)
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
