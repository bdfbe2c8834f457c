package pgconn

import (
	"context"
	"errors"
	"fmt"
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

// A connection the server refuses for a connection limit (SQLSTATE 53300: a
// database's connection_limit, the role's, max_connections) is retried with
// backoff within max_retry_duration, even before the client ever connected:
// nothing ran on it. (Issue 31: applies and destroys with a non-superuser
// admin failed with "too many connections" on a database with
// connection_limit = 10.)
func TestRetry_regressionTooManyConnectionsRetried(t *testing.T) {
	refused := func() error {
		return fmt.Errorf("failed to connect to `user=app database=app`: %w",
			&pgconn.PgError{Severity: "FATAL", Code: CodeTooManyConnections, Message: `too many connections for database "app"`})
	}
	c := NewClient(Config{MaxRetryDuration: 10 * time.Second})
	attempts := 0
	err := c.retry(context.Background(), func() error {
		attempts++
		if attempts < 4 {
			return refused()
		}
		return nil
	})
	if err != nil || attempts != 4 || c.Retries() != 3 {
		t.Fatalf("err %v after %d attempts (%d retries): want success on the 4th attempt", err, attempts, c.Retries())
	}

	// past max_retry_duration: the error says what happened and what to do
	c = NewClient(Config{MaxRetryDuration: 300 * time.Millisecond})
	start := time.Now()
	attempts = 0
	err = c.retry(context.Background(), func() error { attempts++; return refused() })
	if elapsed := time.Since(start); elapsed > 2*time.Second || attempts < 3 {
		t.Fatalf("%d attempts in %s: want several within max_retry_duration", attempts, elapsed)
	}
	var tooMany *TooManyConnectionsError
	if !errors.As(err, &tooMany) || SQLState(err) != CodeTooManyConnections {
		t.Fatalf("want a TooManyConnectionsError wrapping the server's error, got %T: %v", err, err)
	}
	for _, want := range []string{`too many connections for database "app"`, "connection limit", "300ms (max_retry_duration)", "-parallelism", "max_connections"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	// an outer retry does not start over on an error an inner one gave up on
	attempts = 0
	err = c.retry(context.Background(), func() error { attempts++; return tooMany })
	if attempts != 1 || !errors.As(err, &tooMany) {
		t.Fatalf("outer retry: %d attempts (%v), want 1", attempts, err)
	}

	// retries off: one attempt, the same explanation
	c = NewClient(Config{MaxRetryDuration: -1})
	attempts = 0
	err = c.retry(context.Background(), func() error { attempts++; return refused() })
	if attempts != 1 || !errors.As(err, &tooMany) || !strings.Contains(err.Error(), "did not retry") {
		t.Fatalf("max_retry_duration < 0: %d attempts, %v", attempts, err)
	}
}

// A connection gate holds dials beyond its limit once the limit is known,
// counts connections from the first on, lets a warm-up through only with a
// permit to spare, and wakes a waiter when a permit is given back.
func TestConnGate(t *testing.T) {
	g := newConnGate()
	for i := 0; i < 3; i++ { // limit unknown: no bound, but counted
		if ok, _, _ := g.tryAcquire(false); !ok {
			t.Fatal("refused before the limit is known")
		}
	}
	g.setLimit(3)
	if ok, _, limit := g.tryAcquire(false); ok || limit != 3 {
		t.Fatal("a fourth connection passed a limit of 3")
	}
	g.release()
	if ok, _, _ := g.tryAcquire(true); ok {
		t.Fatal("a warm-up took the last permit")
	}
	if ok, _, _ := g.tryAcquire(false); !ok {
		t.Fatal("the freed permit was not handed out")
	}
	ok, wait, _ := g.tryAcquire(false)
	if ok {
		t.Fatal("over the limit")
	}
	go g.release()
	select {
	case <-wait:
	case <-time.After(5 * time.Second):
		t.Fatal("a waiter was not woken when a permit came back")
	}
	g.forget()
	if limit, known := g.state(); known || limit != -1 {
		t.Fatalf("forget: limit %d known %v", limit, known)
	}
}
