package pg

import (
	"crypto/x509"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

func TestIsTransient(t *testing.T) {
	cases := []struct {
		err  error
		want bool
	}{
		{&pgconn.PgError{Code: CodeSerializationFailure}, true},
		{&pgconn.PgError{Code: CodeDeadlockDetected}, true},
		{fmt.Errorf("wrapped: %w", &pgconn.PgError{Code: CodeInternalError, Message: "tuple concurrently updated"}), true},
		{&pgconn.PgError{Code: CodeInternalError, Message: "something else"}, false},
		{&pgconn.PgError{Code: CodeInsufficientPriv}, false},
		{fmt.Errorf("tls: %w", x509.UnknownAuthorityError{}), false},
		{nil, false},
	}
	for _, c := range cases {
		if got := IsTransient(c.err); got != c.want {
			t.Errorf("IsTransient(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
