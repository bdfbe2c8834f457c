package pgconn

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
)

// SQLSTATE codes this package reacts to.
const (
	CodeSerializationFailure = "40001"
	CodeDeadlockDetected     = "40P01"
	CodeInternalError        = "XX000"
	CodeUndefinedObject      = "42704"
	CodeDuplicateObject      = "42710"
	CodeInvalidCatalogName   = "3D000"
	CodeInvalidSchemaName    = "3F000"
	CodeDependentObjects     = "2BP01"
	CodeObjectInUse          = "55006"
	CodeInsufficientPriv     = "42501"
	CodeDuplicateDatabase    = "42P04"
	CodeDuplicateSchema      = "42P06"
)

// IsDuplicate reports whether err says that the object to create already
// exists (a role, database, schema, table, function or other object).
func IsDuplicate(err error) bool {
	switch SQLState(err) {
	case CodeDuplicateObject, CodeDuplicateDatabase, CodeDuplicateSchema,
		"42P07", // duplicate_table
		"42723": // duplicate_function
		return true
	}
	return false
}

// TransientError marks an error of the layer above as worth retrying
// (IsTransient): the transaction was rolled back and a new attempt can
// succeed (e.g. a role whose privileges a change borrowed was dropped
// meanwhile: the retry no longer borrows it).
type TransientError struct{ Err error }

func (e *TransientError) Error() string { return e.Err.Error() }
func (e *TransientError) Unwrap() error { return e.Err }

// SQLState returns the SQLSTATE of err, or "".
func SQLState(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code
	}
	return ""
}

// IsTransient reports whether err is worth retrying: serialization failures,
// deadlocks, concurrent catalog updates, and connection failures that happened
// before anything was sent to the server.
func IsTransient(err error) bool {
	if err == nil {
		return false
	}
	var marked *TransientError
	if errors.As(err, &marked) {
		return true // the layer above rolled back and knows the retry can succeed
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case CodeSerializationFailure, CodeDeadlockDetected:
			return true
		case CodeInternalError:
			// "could not find tuple for default ACL ...": ALTER DEFAULT
			// PRIVILEGES and DROP OWNED changing one pg_default_acl entry at once
			// (a destroy resetting default privileges while it drops a role they
			// name); run again, the statement sees the entry as it is now.
			// "cache lookup failed for namespace ..." ("for schema" since
			// PostgreSQL 17): DROP OWNED (a role's drop) meeting a schema
			// dropped at the same time by another transaction of the same
			// destroy. "cache lookup failed for type ...": a reset of default
			// privileges for types meeting a type dropped at the same time
			// (TestAccWalk_regressionRoleSettingOfRenamedRole's destroy, once
			// in CI on PostgreSQL 15)
			return strings.Contains(pgErr.Message, "tuple concurrently updated") ||
				strings.Contains(pgErr.Message, "cache lookup failed for type") ||
				strings.Contains(pgErr.Message, "tuple concurrently deleted") ||
				strings.Contains(pgErr.Message, "could not find tuple for") ||
				strings.Contains(pgErr.Message, "cache lookup failed for namespace") ||
				strings.Contains(pgErr.Message, "cache lookup failed for schema") ||
				strings.Contains(pgErr.Message, "cache lookup failed for user mapping")
		}
		return false
	}
	// A certificate the client rejects will be rejected again, and a login
	// token that could not be had (credentials, configuration) too.
	if isCertificateError(err) || isSetupError(err) || isTokenError(err) {
		return false
	}
	return pgconn.SafeToRetry(err)
}

// More SQLSTATE codes: connection-level failures and lock timeouts.
const (
	CodeAdminShutdown     = "57P01" // terminating connection due to administrator command
	CodeCrashShutdown     = "57P02"
	CodeCannotConnectNow  = "57P03" // the database system is starting up / shutting down / in recovery
	CodeLockNotAvailable  = "55P03" // lock_timeout, NOWAIT
	classConnectionFailed = "08"    // connection exception
)

// IsConnectionError reports whether err says the connection to the server
// failed or was lost (terminated backend, server restart or failover, reset
// socket, a server not accepting connections yet), rather than the server
// refusing a statement. Such an error is worth retrying on a fresh connection;
// whether a write may be retried depends on whether it was sent (see
// nothingSent and ErrOutcomeUnknown).
func IsConnectionError(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case CodeAdminShutdown, CodeCrashShutdown, CodeCannotConnectNow:
			return true
		}
		return strings.HasPrefix(pgErr.Code, classConnectionFailed)
	}
	if isCertificateError(err) || isSetupError(err) || isTokenError(err) {
		return false
	}
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	if errors.As(err, &connectErr) || errors.As(err, &netErr) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.ECONNABORTED) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	msg := err.Error()
	for _, s := range []string{
		"conn closed", "connection reset", "broken pipe", "unexpected EOF", "connection refused",
		"the database system is starting up", "the database system is in recovery",
		"the database system is shutting down", "server closed the connection",
	} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// isCertificateError reports a certificate the client rejects: it will be rejected again.
func isCertificateError(err error) bool {
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	return errors.As(err, &unknownCA) || errors.As(err, &hostname) || errors.As(err, &invalid) || errors.As(err, &verify)
}

// nothingSent reports whether err happened before a statement reached the
// server (acquiring or opening a connection), so that repeating it is safe.
func nothingSent(err error) bool {
	var connectErr *pgconn.ConnectError
	return pgconn.SafeToRetry(err) || errors.As(err, &connectErr)
}

// isDialFailure reports a connection attempt that found no server at all
// (refused, unreachable, DNS), as opposed to one the server answered.
func isDialFailure(err error) bool {
	var connectErr *pgconn.ConnectError
	var pgErr *pgconn.PgError
	return errors.As(err, &connectErr) && !errors.As(err, &pgErr)
}

// ErrOutcomeUnknown is matched (errors.Is) by the error of a write whose
// outcome is unknown: the connection was lost after a COMMIT, or a statement
// run outside a transaction (Client.Do, Client.Conn), was sent, so the server
// may or may not have applied it. The caller re-reads the catalog to find out.
var ErrOutcomeUnknown = errors.New("outcome unknown")

// OutcomeUnknownError is the error of a write whose outcome is unknown; it
// wraps the connection error.
type OutcomeUnknownError struct{ Err error }

func (e *OutcomeUnknownError) Error() string {
	return "the connection to the server was lost after the change was sent, so whether it was applied is unknown: " + e.Err.Error()
}

func (e *OutcomeUnknownError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrOutcomeUnknown) true.
func (e *OutcomeUnknownError) Is(target error) bool { return target == ErrOutcomeUnknown }

// OutcomeTracker records, for one resource operation, whether a write of it
// ended with an unknown outcome. Resources turn errors into diagnostics (text);
// the resource skeleton asks the tracker instead.
type OutcomeTracker struct{ unknown atomic.Bool }

type outcomeKey struct{}

// TrackOutcome returns ctx carrying a new tracker: every write on it that ends
// with ErrOutcomeUnknown marks the tracker.
func TrackOutcome(ctx context.Context) (context.Context, *OutcomeTracker) {
	t := &OutcomeTracker{}
	return context.WithValue(ctx, outcomeKey{}, t), t
}

// Unknown reports whether a write ended with an unknown outcome since the last Reset.
func (t *OutcomeTracker) Unknown() bool { return t.unknown.Load() }

// Reset forgets earlier unknown outcomes.
func (t *OutcomeTracker) Reset() { t.unknown.Store(false) }

// outcomeUnknown wraps err as an OutcomeUnknownError and marks ctx's tracker.
func outcomeUnknown(ctx context.Context, err error) error {
	if t, ok := ctx.Value(outcomeKey{}).(*OutcomeTracker); ok {
		t.unknown.Store(true)
	}
	return &OutcomeUnknownError{Err: err}
}
