package pgconn

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
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
		{&pgconn.PgError{Code: CodeInternalError, Message: "could not find tuple for default ACL 16544"}, true},
		{&pgconn.PgError{Code: CodeInternalError, Message: "cache lookup failed for namespace 16531"}, true},
		{&pgconn.PgError{Code: CodeInternalError, Message: "cache lookup failed for schema 16495"}, true},
		{&pgconn.PgError{Code: CodeInternalError, Message: "cache lookup failed for type 21246"}, true},
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

func TestIsConnectionError(t *testing.T) {
	cases := []struct {
		err  error
		want bool
	}{
		{&pgconn.PgError{Code: CodeAdminShutdown, Message: "terminating connection due to administrator command"}, true},
		{&pgconn.PgError{Code: CodeCrashShutdown}, true},
		{&pgconn.PgError{Code: CodeCannotConnectNow, Message: "the database system is starting up"}, true},
		{&pgconn.PgError{Code: "08006"}, true},
		{&pgconn.PgError{Code: "08P01"}, true},
		{fmt.Errorf("creating role: %w", &pgconn.PgError{Code: CodeAdminShutdown}), true},
		{&pgconn.PgError{Code: CodeDuplicateObject, Message: `role "x" already exists`}, false},
		{&pgconn.PgError{Code: "28P01", Message: "password authentication failed"}, false},
		{&pgconn.PgError{Code: CodeLockNotAvailable}, false},
		{&pgconn.PgError{Code: CodeSerializationFailure}, false},
		{io.EOF, true},
		{fmt.Errorf("reading: %w", io.ErrUnexpectedEOF), true},
		{&net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}, true},
		{fmt.Errorf("write: %w", syscall.EPIPE), true},
		{errors.New("conn closed"), true},
		{errors.New("FATAL: the database system is in recovery mode"), true},
		{fmt.Errorf("tls: %w", x509.UnknownAuthorityError{}), false},
		{context.Canceled, false},
		{errors.New("syntax error"), false},
		{nil, false},
	}
	for _, c := range cases {
		if got := IsConnectionError(c.err); got != c.want {
			t.Errorf("IsConnectionError(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

func TestOutcomeUnknown(t *testing.T) {
	cause := &pgconn.PgError{Code: CodeAdminShutdown}
	ctx, tr := TrackOutcome(context.Background())
	if tr.Unknown() {
		t.Fatal("a new tracker must be clear")
	}
	err := fmt.Errorf("creating database: %w", outcomeUnknown(ctx, cause))
	if !errors.Is(err, ErrOutcomeUnknown) || SQLState(err) != CodeAdminShutdown {
		t.Fatalf("%v must match ErrOutcomeUnknown and keep its cause", err)
	}
	var oe *OutcomeUnknownError
	if !errors.As(err, &oe) || !errors.Is(oe.Err, cause) {
		t.Fatal("errors.As must find the OutcomeUnknownError")
	}
	if !tr.Unknown() {
		t.Fatal("the tracker must be marked")
	}
	tr.Reset()
	if tr.Unknown() {
		t.Fatal("Reset must clear the tracker")
	}
	// without a tracker in ctx nothing breaks
	if !errors.Is(outcomeUnknown(context.Background(), cause), ErrOutcomeUnknown) {
		t.Fatal("outcomeUnknown without a tracker")
	}
}

func TestRetryable(t *testing.T) {
	c := NewClient(Config{})
	dial := &pgconn.ConnectError{Config: &pgconn.Config{}}
	if again, _ := c.retryable(fmt.Errorf("x: %w", dial)); again {
		t.Error("a server never reached must not be retried before the first connection")
	}
	c.connected.Store(true)
	if again, conn := c.retryable(dial); !again || !conn {
		t.Error("a server not reached after a first connection (restart, failover) must be retried")
	}
	if again, _ := c.retryable(&OutcomeUnknownError{Err: io.EOF}); again {
		t.Error("a write with an unknown outcome must not be repeated")
	}
	if again, conn := c.retryable(&pgconn.PgError{Code: CodeDeadlockDetected}); !again || conn {
		t.Error("a deadlock is transient, not a connection failure")
	}
	if again, _ := c.retryable(&pgconn.PgError{Code: CodeDuplicateObject}); again {
		t.Error("a refused statement must not be retried")
	}
}
