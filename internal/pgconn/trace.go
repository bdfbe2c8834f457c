package pgconn

import (
	"context"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/jackc/pgx/v5"
)

// sqlTracer logs every statement at debug level. Secrets spliced into a
// statement's text were registered on the operation's context when the
// statement was built (see secret.go) and are masked in these log lines, as in
// every other line logged with that context. Bind parameters are not logged at
// all (only their number).
type sqlTracer struct{}

func (sqlTracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	ctx = logContext(ctx)
	tflog.Debug(ctx, "PostgreSQL statement", map[string]any{"sql": data.SQL, "args": len(data.Args)})
	return ctx
}

func (sqlTracer) TraceQueryEnd(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryEndData) {
	if data.Err != nil {
		tflog.Debug(ctx, "PostgreSQL statement failed", map[string]any{"error": data.Err.Error()})
	}
}
