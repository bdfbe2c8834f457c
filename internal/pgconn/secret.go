package pgconn

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Secrets in statement text.
//
// PostgreSQL takes no bind parameters in utility statements, so a password in
// user-mapping or server OPTIONS, or in a subscription's CONNECTION, is spliced
// into the statement as a string constant. Such a constant is only ever made
// by Secrets.Literal, which registers the value on the operation's context as
// it builds the statement. Every log line written with that context (the
// statement tracer, retries, failures) masks the registered values, and the
// operation's errors are scrubbed of them before they leave this package (a
// server error may echo part of the statement). Masking is by construction:
// nothing inspects SQL text to guess where a secret is.
//
// The server's own statement log is the other place: see quietServerLog.

type secretsKey struct{}

// Secrets are the sensitive values spliced into the statements of one operation.
type Secrets struct {
	mu   sync.Mutex
	vals []string
}

// WithSecrets returns ctx carrying a secret set: the one ctx already carries, or a new one.
func WithSecrets(ctx context.Context) (context.Context, *Secrets) {
	if s, ok := ctx.Value(secretsKey{}).(*Secrets); ok {
		return ctx, s
	}
	s := &Secrets{}
	return context.WithValue(ctx, secretsKey{}, s), s
}

// add registers values as secret, each in every spelling it can take in a
// statement or a message: as is, and inside a string constant (quotes doubled).
func (s *Secrets) Add(values ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range values {
		v = strings.ReplaceAll(v, "\x00", "")
		if v == "" {
			continue
		}
		for _, f := range []string{v, strings.ReplaceAll(v, "'", "''")} {
			if !containsString(s.vals, f) {
				s.vals = append(s.vals, f)
			}
		}
	}
}

func containsString(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// literal quotes v as a string constant for statement text and registers it as secret.
func (s *Secrets) Literal(v string) string {
	s.Add(v)
	return QuoteLiteral(v)
}

// values returns the registered spellings, longest first (so that a secret
// containing another is masked whole).
func (s *Secrets) values() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := append([]string(nil), s.vals...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && len(out[j]) > len(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// any reports whether a secret was registered.
func (s *Secrets) any() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.vals) > 0
}

// logContext returns ctx with the secrets it carries masked ("***") in the
// message and the field values of every log line written with it.
func logContext(ctx context.Context) context.Context {
	if s, ok := ctx.Value(secretsKey{}).(*Secrets); ok {
		if v := s.values(); len(v) > 0 {
			ctx = tflog.MaskLogStrings(ctx, v...)
		}
	}
	return ctx
}

func (s *Secrets) scrubString(msg string) string {
	for _, v := range s.values() {
		msg = strings.ReplaceAll(msg, v, "***")
	}
	return msg
}

// Scrub returns err without the registered secrets. When there is nothing to
// hide, err is returned as it is; otherwise the result's message is scrubbed
// and it unwraps to a scrubbed copy of the server's error, if any, so that
// SQLSTATE checks keep working.
func (s *Secrets) Scrub(err error) error {
	if err == nil || !s.any() {
		return err
	}
	msg := s.scrubString(err.Error())
	var pgErr *pgconn.PgError
	isPg := errors.As(err, &pgErr)
	var cp pgconn.PgError
	if isPg {
		cp = *pgErr
		for _, f := range []*string{&cp.Message, &cp.Detail, &cp.Hint, &cp.Where, &cp.InternalQuery, &cp.SchemaName,
			&cp.TableName, &cp.ColumnName, &cp.DataTypeName, &cp.ConstraintName} {
			*f = s.scrubString(*f)
		}
	}
	if msg == err.Error() && (!isPg || cp == *pgErr) {
		return err
	}
	e := &scrubbedError{msg: msg}
	if isPg {
		e.pg = &cp
	}
	return e
}

// scrubbedError is an error whose text had secrets removed.
type scrubbedError struct {
	msg string
	pg  *pgconn.PgError
}

func (e *scrubbedError) Error() string { return e.msg }

func (e *scrubbedError) Unwrap() error {
	if e.pg == nil {
		return nil
	}
	return e.pg
}

// sensitiveOptionName matches the names of foreign-server options whose values
// are secret (password, sslpassword, passphrase, secret, api_key, token,
// credentials, authorization, ...). Every value of a user mapping is secret.
var sensitiveOptionName = regexp.MustCompile(`(?i)pass|secret|key|token|credential|auth`)

// SensitiveServerOption reports whether the value of the foreign-server option
// name is treated as a secret.
func SensitiveServerOption(name string) bool { return sensitiveOptionName.MatchString(name) }

// ConninfoPassword returns the password a libpq connection string (keyword/value
// or URI form) holds, or "".
func ConninfoPassword(conninfo string) string {
	if strings.HasPrefix(conninfo, "postgresql://") || strings.HasPrefix(conninfo, "postgres://") {
		u, err := url.Parse(conninfo)
		if err != nil {
			return ""
		}
		if p, ok := u.User.Password(); ok {
			return p
		}
		return u.Query().Get("password")
	}
	var pw string
	rest := conninfo
	for {
		rest = strings.TrimLeft(rest, " \t\n\r\f\v")
		if rest == "" {
			return pw
		}
		eq := strings.IndexByte(rest, '=')
		if eq < 0 {
			return pw
		}
		key := strings.TrimSpace(rest[:eq])
		rest = strings.TrimLeft(rest[eq+1:], " \t\n\r\f\v")
		var val strings.Builder
		if strings.HasPrefix(rest, "'") {
			i := 1
			for ; i < len(rest) && rest[i] != '\''; i++ {
				if rest[i] == '\\' && i+1 < len(rest) {
					i++
				}
				val.WriteByte(rest[i])
			}
			rest = rest[min(i+1, len(rest)):]
		} else {
			i := 0
			for ; i < len(rest) && !strings.ContainsRune(" \t\n\r\f\v", rune(rest[i])); i++ {
				if rest[i] == '\\' && i+1 < len(rest) {
					i++
				}
				val.WriteByte(rest[i])
			}
			rest = rest[i:]
		}
		if key == "password" {
			pw = val.String()
		}
	}
}

// AddConninfo registers a connection string and the password in it as secret.
func (s *Secrets) AddConninfo(conninfo string) {
	s.Add(conninfo, ConninfoPassword(conninfo))
}

// Settings that make PostgreSQL write a statement's text to its log, and the
// values that keep it out. All are superuser-only (PGC_SUSET), unless a
// superuser grants SET on them (PostgreSQL 15+).
var quietSettings = []struct{ name, value string }{
	{"log_statement", "none"},
	{"log_min_error_statement", "panic"},
	{"log_min_duration_statement", "-1"},
	{"log_min_duration_sample", "-1"}, // PostgreSQL 13+
}

// quietServerLog keeps the statements that follow on q out of the server's log,
// as far as the connected role may: with SET LOCAL inside a transaction, or SET
// on a session (ExecSecret restores them). What the role may set
// is asked read-only first (superuser, or on PostgreSQL 15+ the SET privilege
// on the parameter), so that nothing fails for want of it. It returns the
// settings it changed; when log_statement is not among them, the statement
// text (and the secrets in it) reaches a server log that logs DDL, which is
// logged as a warning.
func (c *Client) quietServerLog(ctx context.Context, q Querier, local bool) ([]string, error) {
	caps, err := c.Capabilities(ctx)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, s := range quietSettings {
		if s.name == "log_min_duration_sample" && !caps.AtLeast(13) {
			continue
		}
		names = append(names, s.name)
	}
	query := `SELECT array(SELECT n FROM unnest($1::text[]) n WHERE (SELECT rolsuper FROM pg_roles WHERE rolname = current_user))`
	if caps.AtLeast(15) {
		query = `SELECT array(SELECT n FROM unnest($1::text[]) n WHERE has_parameter_privilege(n, 'SET'))`
	}
	var allowed []string
	if err := q.QueryRow(ctx, query, names).Scan(&allowed); err != nil {
		return nil, fmt.Errorf("checking which logging settings the provider's role may set: %w", err)
	}
	scope := "SET SESSION "
	if local {
		scope = "SET LOCAL "
	}
	for _, s := range quietSettings {
		if !containsString(allowed, s.name) {
			continue
		}
		if _, err := q.Exec(ctx, scope+s.name+" = "+QuoteLiteral(s.value)); err != nil {
			return nil, fmt.Errorf("setting %s: %w", s.name, err)
		}
	}
	if !containsString(allowed, "log_statement") {
		tflog.Warn(ctx, "the provider's role may not set log_statement: this statement's secret values reach the server log if it logs DDL "+
			"(a superuser can allow it on PostgreSQL 15+: GRANT SET ON PARAMETER log_statement, log_min_error_statement, log_min_duration_statement TO <role>)",
			map[string]any{"role": caps.CurrentUser})
	}
	return allowed, nil
}

// ExecSecret runs stmt, whose text carries registered secrets, with the
// server's statement logging turned off for it where the role may
// (quietServerLog), and turns it back on afterwards: inside a transaction
// (inTx) with SET LOCAL ... TO DEFAULT (a failed statement rolls the SET LOCAL
// back anyway), on a session with RESET.
func (c *Client) ExecSecret(ctx context.Context, q Querier, inTx bool, stmt string) error {
	changed, err := c.quietServerLog(ctx, q, inTx)
	if err != nil {
		return err
	}
	_, err = q.Exec(ctx, stmt)
	if err != nil && inTx {
		return err
	}
	var restore []error
	for _, name := range changed {
		reset := "RESET " + name
		if inTx {
			reset = "SET LOCAL " + name + " TO DEFAULT"
		}
		if _, rerr := q.Exec(ctx, reset); rerr != nil {
			restore = append(restore, fmt.Errorf("restoring %s: %w", name, rerr))
		}
	}
	if len(restore) > 0 {
		return errors.Join(err, &RestoreError{errors.Join(restore...)})
	}
	return err
}

// RestoreError says a session's logging settings could not be restored: the
// connection must not go back to the pool.
type RestoreError struct{ err error }

func (e *RestoreError) Error() string { return e.err.Error() }
func (e *RestoreError) Unwrap() error { return e.err }

// ExecInTx runs stmt in transaction tx: through ExecSecret when its text carries secrets.
func (c *Client) ExecInTx(ctx context.Context, tx pgx.Tx, secret bool, stmt string) error {
	if secret {
		return c.ExecSecret(ctx, tx, true, stmt)
	}
	_, err := tx.Exec(ctx, stmt)
	return err
}
