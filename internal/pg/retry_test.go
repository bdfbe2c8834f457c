package pg

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

func classifyForTest(err error) (bool, bool) {
	if IsConnectionError(err) {
		return true, true
	}
	return IsTransient(err), false
}

func TestRetryLoopRecoversFromConnectionFailures(t *testing.T) {
	attempts, retries := 0, 0
	err := retryLoop(context.Background(), time.Minute, time.Millisecond, classifyForTest, func() error {
		attempts++
		if attempts < 4 {
			return &pgconn.PgError{Code: CodeAdminShutdown}
		}
		return nil
	}, func() { retries++ })
	if err != nil || attempts != 4 || retries != 3 {
		t.Fatalf("err %v, attempts %d, retries %d; want success after 4 attempts, 3 retries", err, attempts, retries)
	}
}

func TestRetryLoopStopsAtDeadline(t *testing.T) {
	start := time.Now()
	attempts := 0
	err := retryLoop(context.Background(), 300*time.Millisecond, time.Millisecond, classifyForTest, func() error {
		attempts++
		return &pgconn.PgError{Code: CodeCannotConnectNow, Message: "the database system is starting up"}
	}, func() {})
	elapsed := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "gave up after retrying for 300ms") || SQLState(err) != CodeCannotConnectNow {
		t.Fatalf("want the last error, wrapped with the deadline: %v", err)
	}
	if elapsed > 400*time.Millisecond || attempts < 3 {
		t.Fatalf("%d attempts in %s: want several attempts within the deadline", attempts, elapsed)
	}
}

func TestRetryLoopDisabled(t *testing.T) {
	attempts := 0
	err := retryLoop(context.Background(), -1, time.Millisecond, classifyForTest, func() error {
		attempts++
		return &pgconn.PgError{Code: CodeAdminShutdown}
	}, func() {})
	if err == nil || attempts != 1 {
		t.Fatalf("negative max retry duration: want 1 attempt, got %d (%v)", attempts, err)
	}
}

func TestRetryLoopTransientAttemptsBounded(t *testing.T) {
	attempts := 0
	err := retryLoop(context.Background(), time.Hour, time.Millisecond, classifyForTest, func() error {
		attempts++
		return &pgconn.PgError{Code: CodeSerializationFailure}
	}, func() { t.Fatal("onRetry is for connection failures") })
	if err == nil || attempts != maxAttempts {
		t.Fatalf("want %d attempts, got %d (%v)", maxAttempts, attempts, err)
	}
}

func TestRetryLoopNotRetryable(t *testing.T) {
	attempts := 0
	want := &pgconn.PgError{Code: CodeDuplicateObject}
	err := retryLoop(context.Background(), time.Hour, time.Millisecond, classifyForTest, func() error {
		attempts++
		return want
	}, func() {})
	if !errors.Is(err, want) || attempts != 1 {
		t.Fatalf("want one attempt and the error itself, got %d (%v)", attempts, err)
	}
}

func TestRetryLoopContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := retryLoop(ctx, time.Hour, time.Millisecond, classifyForTest, func() error { return &pgconn.PgError{Code: CodeAdminShutdown} }, func() {})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want the context's error: %v", err)
	}
}
