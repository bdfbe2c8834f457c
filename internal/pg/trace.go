package pg

import (
	"context"
	"regexp"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/jackc/pgx/v5"
)

// secretInSQL matches the literal after PASSWORD in role statements and after
// CONNECTION in subscription statements (a conninfo may hold a password). Passwords
// are only ever sent as SCRAM verifiers, but a verifier is still worth hiding.
var secretInSQL = regexp.MustCompile(`(?i)((?:PASSWORD|CONNECTION)\s+)'(?:[^']|'')*'`)

// MaskSQL replaces password literals in a statement with '***'.
func MaskSQL(sql string) string { return secretInSQL.ReplaceAllString(sql, "${1}'***'") }

// sqlTracer logs every statement at debug level with secrets masked. Bind
// parameters are not logged at all (only their number).
type sqlTracer struct{}

func (sqlTracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	ctx = tflog.MaskAllFieldValuesRegexes(ctx, secretInSQL)
	tflog.Debug(ctx, "PostgreSQL statement", map[string]any{"sql": MaskSQL(data.SQL), "args": len(data.Args)})
	return ctx
}

func (sqlTracer) TraceQueryEnd(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryEndData) {
	if data.Err != nil {
		tflog.Debug(ctx, "PostgreSQL statement failed", map[string]any{"error": data.Err.Error()})
	}
}
