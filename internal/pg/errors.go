package pg

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"strings"

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
)

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
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case CodeSerializationFailure, CodeDeadlockDetected:
			return true
		case CodeInternalError:
			return strings.Contains(pgErr.Message, "tuple concurrently updated") ||
				strings.Contains(pgErr.Message, "tuple concurrently deleted")
		}
		return false
	}
	// A certificate the client rejects will be rejected again.
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	if errors.As(err, &unknownCA) || errors.As(err, &hostname) || errors.As(err, &invalid) || errors.As(err, &verify) {
		return false
	}
	return pgconn.SafeToRetry(err)
}
