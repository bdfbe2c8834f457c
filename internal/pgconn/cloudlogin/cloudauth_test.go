package cloudlogin

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/rds/auth"
	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// fakeTokens hands out numbered tokens living ttl from the (fake) clock.
type fakeTokens struct {
	ttl   time.Duration
	now   func() time.Time
	calls int
}

func (f *fakeTokens) Token(context.Context) (string, time.Time, error) {
	f.calls++
	return fmt.Sprintf("token-%d", f.calls), f.now().Add(f.ttl), nil
}

// TestTokenCache_renewsBeforeExpiry: one token serves every connection until
// 5 minutes before it expires (at most half its lifetime for short-lived
// ones), then the next connection gets a new one; a long apply never presents
// an expired token.
func TestTokenCache_renewsBeforeExpiry(t *testing.T) {
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	now := func() time.Time { return clock }
	for _, tc := range []struct {
		ttl, reuseUntil time.Duration
	}{
		{15 * time.Minute, 10 * time.Minute}, // RDS tokens
		{time.Hour, 55 * time.Minute},        // Google and Entra ID tokens
		{4 * time.Minute, 2 * time.Minute},   // short-lived: half the lifetime
	} {
		start := clock
		src := &fakeTokens{ttl: tc.ttl, now: now}
		c := &tokenCache{src: src, method: "fake", now: now}
		cc := &pgx.ConnConfig{}
		for _, step := range []struct {
			at   time.Duration
			want string
		}{
			{0, "token-1"},
			{time.Second, "token-1"},
			{tc.reuseUntil - time.Second, "token-1"},
			{tc.reuseUntil, "token-2"},
			{tc.reuseUntil + time.Second, "token-2"},
			{2*tc.reuseUntil - time.Second, "token-2"},
			{2 * tc.reuseUntil, "token-3"},
		} {
			clock = start.Add(step.at)
			if err := c.BeforeConnect(context.Background(), cc); err != nil {
				t.Fatal(err)
			}
			if cc.Password != step.want {
				t.Errorf("ttl %s, at +%s: password %q, want %q", tc.ttl, step.at, cc.Password, step.want)
			}
		}
		if src.calls != 3 {
			t.Errorf("ttl %s: %d tokens fetched, want 3", tc.ttl, src.calls)
		}
		clock = start.Add(24 * time.Hour)
	}
}

type failing struct{ err error }

func (f failing) Token(context.Context) (string, time.Time, error) { return "", time.Time{}, f.err }

// TestTokenCache_errorIsNotAConnectionFailure: a token that cannot be had
// (no credentials, an unreachable token endpoint) fails the operation at once
// with the method named; it is not retried as a lost connection would be.
func TestTokenCache_errorIsNotAConnectionFailure(t *testing.T) {
	c := &tokenCache{src: failing{fmt.Errorf("dial tcp 127.0.0.1:1: connect: %w", syscall.ECONNREFUSED)}, method: pgconn.AuthAWSRDSIAM}
	err := c.BeforeConnect(context.Background(), &pgx.ConnConfig{})
	var te *pgconn.TokenError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "aws_rds_iam") {
		t.Fatalf("error %v: want a TokenError naming the method", err)
	}
	if pgconn.IsConnectionError(err) || pgconn.IsConnectionError(fmt.Errorf("wrapped: %w", err)) || pgconn.IsTransient(err) {
		t.Errorf("a token error is classified as a connection failure (it would be retried): %v", err)
	}
	c = &tokenCache{src: failing{nil}, method: pgconn.AuthAzure} // empty token, no error
	if err := c.BeforeConnect(context.Background(), &pgx.ConnConfig{}); err == nil {
		t.Error("an empty token was accepted")
	}
}

// TestRDSAuthToken_sameAsSDK: the token signed at an injected time is the
// one the SDK's BuildAuthToken makes (same second, same inputs).
func TestRDSAuthToken_sameAsSDK(t *testing.T) {
	creds := aws.Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", SessionToken: "session/token+x"}
	provider := credentials.StaticCredentialsProvider{Value: creds}
	endpoint := "db.abc123.eu-west-3.rds.amazonaws.com:5432"
	for range 5 {
		before := time.Now().UTC().Truncate(time.Second)
		want, err := auth.BuildAuthToken(context.Background(), endpoint, "eu-west-3", "iam_user", provider)
		if err != nil {
			t.Fatal(err)
		}
		if time.Now().UTC().Truncate(time.Second) != before {
			continue // the second changed while signing
		}
		got, err := rdsAuthToken(context.Background(), endpoint, "eu-west-3", "iam_user", creds, before)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("token\n%s\nwant (BuildAuthToken)\n%s", got, want)
		}
		u, err := url.Parse("https://" + got)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		if u.Host != endpoint || q.Get("Action") != "connect" || q.Get("DBUser") != "iam_user" || q.Get("X-Amz-Expires") != "900" ||
			!strings.HasPrefix(q.Get("X-Amz-Credential"), "AKIDEXAMPLE/") || !strings.Contains(q.Get("X-Amz-Credential"), "/eu-west-3/rds-db/") {
			t.Errorf("unexpected token %s", got)
		}
		return
	}
	t.Fatal("the clock's second changed during every attempt")
}

// TestAWSRDSTokens_regionAndProfile: the region comes from the argument, else
// the SDK's configuration (here a profile of a shared config file), else the
// RDS host name; the profile's credentials sign the token.
func TestAWSRDSTokens_regionAndProfile(t *testing.T) {
	dir := t.TempDir()
	cfgFile, credFile := filepath.Join(dir, "config"), filepath.Join(dir, "credentials")
	if err := os.WriteFile(cfgFile, []byte("[profile tfacc]\nregion = ap-south-1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(credFile, []byte("[tfacc]\naws_access_key_id = AKIDPROFILE\naws_secret_access_key = profilesecret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{
		"AWS_CONFIG_FILE": cfgFile, "AWS_SHARED_CREDENTIALS_FILE": credFile, "AWS_EC2_METADATA_DISABLED": "true",
		"AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "envsecret", "AWS_REGION": "", "AWS_DEFAULT_REGION": "", "AWS_PROFILE": "",
	} {
		t.Setenv(k, v)
	}
	fixed := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	clock := func() time.Time { return fixed }
	host := "db.abc.us-east-2.rds.amazonaws.com"
	for _, tc := range []struct {
		name         string
		auth         pgconn.CloudAuth
		key, region  string
		wantErrMatch string
	}{
		{"environment, region from the host name", pgconn.CloudAuth{}, "AKIDENV", "us-east-2", ""},
		{"environment, region argument", pgconn.CloudAuth{AWSRegion: "eu-north-1"}, "AKIDENV", "eu-north-1", ""},
		{"profile and its region", pgconn.CloudAuth{AWSProfile: "tfacc"}, "AKIDPROFILE", "ap-south-1", ""},
		{"profile, region argument wins", pgconn.CloudAuth{AWSProfile: "tfacc", AWSRegion: "sa-east-1"}, "AKIDPROFILE", "sa-east-1", ""},
		{"missing profile", pgconn.CloudAuth{AWSProfile: "nope"}, "", "", "nope"},
	} {
		tc.auth.Method = pgconn.AuthAWSRDSIAM
		src := &awsRDSTokens{auth: tc.auth, host: host, port: 5432, user: "u", now: clock}
		tok, exp, err := src.Token(context.Background())
		if tc.wantErrMatch != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErrMatch) {
				t.Errorf("%s: error %v, want one mentioning %q", tc.name, err, tc.wantErrMatch)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		want := fmt.Sprintf("X-Amz-Credential=%s%%2F20260506%%2F%s%%2Frds-db%%2Faws4_request", tc.key, tc.region)
		if !strings.Contains(tok, want) || !strings.HasPrefix(tok, host+":5432?Action=connect&DBUser=u&") {
			t.Errorf("%s: token %s does not contain %s", tc.name, tok, want)
		}
		if !exp.Equal(fixed.Add(15 * time.Minute)) {
			t.Errorf("%s: expiry %s", tc.name, exp)
		}
	}
	// no region anywhere
	src := &awsRDSTokens{auth: pgconn.CloudAuth{Method: pgconn.AuthAWSRDSIAM}, host: "127.0.0.1", port: 5432, user: "u", now: clock}
	if _, _, err := src.Token(context.Background()); err == nil || !strings.Contains(err.Error(), "aws_rds_iam_region") {
		t.Errorf("no region: error %v", err)
	}
}
