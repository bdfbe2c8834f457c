package cloudlogin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/jackc/pgx/v5"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// Cloud login tokens.
//
// With AWS RDS IAM, Cloud SQL IAM or Azure Entra ID authentication the
// password of every new server connection is a short-lived token from the
// cloud's SDK. The token is fetched when a connection is opened (pgx calls
// BeforeConnect for every new connection of every pool), never while the
// provider is configured, and cached by the client until shortly before it
// expires, so all pools of a client share one token and a long apply never
// presents an expired one. Tokens are never logged: every log line written
// while a token is in hand masks it, and nothing logs the connection password.

// Scopes and identifiers the token sources ask for.
const (
	gcpSQLLoginScope     = "https://www.googleapis.com/auth/sqlservice.login"
	gcpCloudPlatform     = "https://www.googleapis.com/auth/cloud-platform"
	awsRDSSigningName    = "rds-db"
	awsRoleSessionName   = "TerraformPostgresqlProvider"
	awsEmptyPayloadHash  = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	awsRDSTokenLifetime  = 15 * time.Minute
	gcpImpersonateEnvVar = "PGTF_GCP_IAM_CREDENTIALS_ENDPOINT"
)

// azureClouds maps each Azure cloud to its Entra ID authority and the scope of
// Azure Database for PostgreSQL's access tokens there (az cloud show:
// ossrdbmsResourceId).
var azureClouds = map[string]struct {
	cloud cloud.Configuration
	scope string
}{
	pgconn.AzurePublic:       {cloud.AzurePublic, "https://ossrdbms-aad.database.windows.net/.default"},
	pgconn.AzureChina:        {cloud.AzureChina, "https://ossrdbms-aad.database.chinacloudapi.cn/.default"},
	pgconn.AzureUSGovernment: {cloud.AzureGovernment, "https://ossrdbms-aad.database.usgovcloudapi.net/.default"},
}

// Option adjusts the cloud logins made by Logins (tests inject a clock and
// an HTTP client this way; there is no package-level seam).
type Option func(*settings)

type settings struct {
	now       func() time.Time // signs AWS RDS tokens and ages cached tokens (nil: time.Now)
	azureHTTP *http.Client     // carries the Azure credential's requests (nil: the SDK's)
}

// WithClock replaces the clock that signs AWS RDS tokens and ages cached tokens.
func WithClock(now func() time.Time) Option {
	return func(s *settings) { s.now = now }
}

// WithAzureHTTPClient carries the Azure credential's requests through c
// (tests trust their local authority's certificate through it).
func WithAzureHTTPClient(c *http.Client) Option {
	return func(s *settings) { s.azureHTTP = c }
}

// Logins returns the maker of the cloud login of a configuration's
// CloudAuth (pgconn.Connectors.Login): a token cache shared by every
// connection of the client.
func Logins(opts ...Option) func(cfg pgconn.Config) pgconn.Login {
	var s settings
	for _, o := range opts {
		o(&s)
	}
	if s.now == nil {
		s.now = time.Now
	}
	return func(cfg pgconn.Config) pgconn.Login { return newTokenCache(cfg, s) }
}

// newTokenCache returns the token cache of a client whose configuration
// names a cloud login method.
func newTokenCache(cfg pgconn.Config, s settings) *tokenCache {
	a := cfg.CloudAuth
	c := &tokenCache{method: a.Method, now: s.now}
	switch a.Method {
	case pgconn.AuthAWSRDSIAM:
		host, port := signingEndpoint(cfg)
		c.src = &awsRDSTokens{auth: *a, host: host, port: port, user: cfg.Username, now: s.now}
	case pgconn.AuthGCPIAM:
		c.src = &gcpTokens{impersonate: a.GCPImpersonateServiceAccount}
	case pgconn.AuthAzure:
		c.src = &azureTokens{tenant: a.AzureTenantID, environment: a.AzureEnvironment, httpClient: s.azureHTTP}
	default:
		c.src = failingTokens{fmt.Errorf("unknown cloud login method %q", a.Method)}
	}
	return c
}

type failingTokens struct{ err error }

func (f failingTokens) Token(context.Context) (string, time.Time, error) {
	return "", time.Time{}, f.err
}

// tokenCache shares one token among all connections of a client and fetches
// a new one when the cached token is close to expiring.
type tokenCache struct {
	src    pgconn.TokenSource
	method string
	now    func() time.Time // ages the cached token (nil: time.Now)

	mu      sync.Mutex
	token   string
	expires time.Time
	renew   time.Time // fetch a new token from then on
}

// tokenRenewMargin is how long before its expiry a token is replaced: at
// most 5 minutes, and at most half its lifetime.
const tokenRenewMargin = 5 * time.Minute

// Current returns the cached token (a fresh one when it is close to
// expiring) and when it expires.
func (c *tokenCache) Current(ctx context.Context) (string, time.Time, error) {
	tok, err := c.get(ctx)
	if err != nil {
		return "", time.Time{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return tok, c.expires, nil
}

func (c *tokenCache) get(ctx context.Context) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := clockOf(c.now)()
	if c.token != "" && t.Before(c.renew) {
		return c.token, nil
	}
	tok, exp, err := c.src.Token(ctx)
	if err != nil {
		return "", &pgconn.TokenError{Method: c.method, Err: err}
	}
	if tok == "" {
		return "", &pgconn.TokenError{Method: c.method, Err: errors.New("the credential returned an empty token")}
	}
	c.token, c.expires, c.renew = tok, exp, time.Time{}
	if !exp.IsZero() {
		c.renew = exp.Add(-min(tokenRenewMargin, exp.Sub(t)/2))
	}
	logCtx := tflog.MaskLogStrings(ctx, tok)
	tflog.Debug(logCtx, "fetched a cloud login token", map[string]any{"method": c.method, "expires": exp.UTC().Format(time.RFC3339)})
	return tok, nil
}

// BeforeConnect sets the token as the password of a new connection.
func (c *tokenCache) BeforeConnect(ctx context.Context, cc *pgx.ConnConfig) error {
	tok, err := c.get(ctx)
	if err != nil {
		return err
	}
	cc.Password = tok
	return nil
}

// clockOf is now, or time.Now when it is nil.
func clockOf(now func() time.Time) func() time.Time {
	if now == nil {
		return time.Now
	}
	return now
}

// --- AWS RDS IAM ---------------------------------------------------------

// signingEndpoint is the host and port an RDS IAM token is signed for:
// CloudAuth.AWSEndpoint when set (its port, else the first host's), else the
// first host and its port (RDS checks the token's host against the instance,
// so with several hosts the token is that of the first).
func signingEndpoint(cfg pgconn.Config) (string, int) {
	hosts, ports := cfg.HostList(), cfg.PortList()
	host, port := hosts[0], ports[0]
	if e := cfg.CloudAuth.AWSEndpoint; e != "" {
		h, p, err := SplitEndpoint(e)
		if err == nil {
			host = h
			if p != 0 {
				port = p
			}
		}
	}
	return host, port
}

// SplitEndpoint splits host[:port] (an IPv6 address in brackets when a port
// follows); port is 0 when none is given.
func SplitEndpoint(e string) (string, int, error) {
	if strings.Count(e, ":") > 1 && !strings.HasPrefix(e, "[") {
		return e, 0, nil // a bare IPv6 address
	}
	h, p, err := net.SplitHostPort(e)
	if err != nil {
		if strings.Contains(err.Error(), "missing port") {
			return strings.Trim(e, "[]"), 0, nil
		}
		return "", 0, err
	}
	n, err := strconv.Atoi(p)
	if err != nil || n < 1 || n > 65535 {
		return "", 0, fmt.Errorf("the port %q is not between 1 and 65535", p)
	}
	if h == "" {
		return "", 0, errors.New("no host")
	}
	return h, n, nil
}

type awsRDSTokens struct {
	auth pgconn.CloudAuth
	host string
	port int
	user string
	now  func() time.Time // signs the token (nil: time.Now)

	once   sync.Once
	region string
	creds  aws.CredentialsProvider
	err    error
}

var rdsHostRegion = regexp.MustCompile(`\.([a-z]{2}(?:-[a-z]+)+-[0-9]+)\.rds\.amazonaws\.com(?:\.cn)?\.?$`)

// load resolves the SDK's configuration once (credentials chain, profile,
// region) and, with a role ARN, the credentials of the assumed role (cached
// and renewed by the SDK).
func (a *awsRDSTokens) load(ctx context.Context) {
	var opts []func(*awsconfig.LoadOptions) error
	if a.auth.AWSProfile != "" {
		opts = append(opts, awsconfig.WithSharedConfigProfile(a.auth.AWSProfile))
	}
	if a.auth.AWSRegion != "" {
		opts = append(opts, awsconfig.WithRegion(a.auth.AWSRegion))
	}
	cfg, err := awsconfig.LoadDefaultConfig(context.WithoutCancel(ctx), opts...)
	if err != nil {
		a.err = fmt.Errorf("loading the AWS configuration: %w", err)
		return
	}
	a.region = cfg.Region
	if a.region == "" {
		if m := rdsHostRegion.FindStringSubmatch(strings.ToLower(a.host)); m != nil {
			a.region = m[1]
		}
	}
	if a.region == "" {
		a.err = errors.New("no AWS region: set aws_rds_iam_region, AWS_REGION, or a region in the AWS profile")
		return
	}
	if cfg.Region == "" {
		cfg.Region = a.region // STS needs one too
	}
	a.creds = cfg.Credentials
	if a.auth.AWSRoleARN != "" {
		p := stscreds.NewAssumeRoleProvider(sts.NewFromConfig(cfg), a.auth.AWSRoleARN, func(o *stscreds.AssumeRoleOptions) {
			o.RoleSessionName = awsRoleSessionName
		})
		a.creds = aws.NewCredentialsCache(p, func(o *aws.CredentialsCacheOptions) { o.ExpiryWindow = tokenRenewMargin })
	}
	if a.creds == nil {
		a.err = errors.New("no AWS credentials found")
	}
}

func (a *awsRDSTokens) Token(ctx context.Context) (string, time.Time, error) {
	a.once.Do(func() { a.load(ctx) })
	if a.err != nil {
		return "", time.Time{}, a.err
	}
	creds, err := a.creds.Retrieve(ctx)
	if err != nil {
		if a.auth.AWSRoleARN != "" {
			return "", time.Time{}, fmt.Errorf("assuming AWS role %s: %w", a.auth.AWSRoleARN, err)
		}
		return "", time.Time{}, fmt.Errorf("retrieving AWS credentials: %w", err)
	}
	signed := clockOf(a.now)()
	tok, err := rdsAuthToken(ctx, net.JoinHostPort(a.host, strconv.Itoa(a.port)), a.region, a.user, creds, signed)
	if err != nil {
		return "", time.Time{}, err
	}
	exp := signed.Add(awsRDSTokenLifetime)
	if creds.CanExpire && creds.Expires.Before(exp) {
		exp = creds.Expires // a token outlives neither its credentials
	}
	return tok, exp, nil
}

// rdsAuthToken builds the RDS IAM token of user for endpoint (host:port)
// exactly as the SDK's feature/rds/auth.BuildAuthToken does (a SigV4
// presigned "connect" URL without its scheme), but signed at the given time,
// so that tests can fix the clock.
func rdsAuthToken(ctx context.Context, endpoint, region, user string, creds aws.Credentials, at time.Time) (string, error) {
	req, err := http.NewRequest(http.MethodGet, "https://"+endpoint, nil)
	if err != nil {
		return "", err
	}
	q := req.URL.Query()
	q.Set("Action", "connect")
	q.Set("DBUser", user)
	q.Set("X-Amz-Expires", strconv.Itoa(int(awsRDSTokenLifetime/time.Second)))
	req.URL.RawQuery = q.Encode()
	signed, _, err := v4.NewSigner().PresignHTTP(ctx, creds, req, awsEmptyPayloadHash, awsRDSSigningName, region, at.UTC())
	if err != nil {
		return "", fmt.Errorf("signing the RDS token: %w", err)
	}
	return strings.TrimPrefix(signed, "https://"), nil
}

// --- Google Cloud SQL IAM --------------------------------------------------

type gcpTokens struct {
	impersonate string

	once sync.Once
	ts   oauth2.TokenSource
	err  error
}

// gcpCredentials finds the Application Default Credentials, then, as
// cyrilgdn's provider does, GOOGLE_CREDENTIALS (the JSON key itself, or a path).
func gcpCredentials(ctx context.Context, scope string) (*google.Credentials, error) {
	params := google.CredentialsParams{Scopes: []string{scope}, EarlyTokenRefresh: gcpEarlyRefresh}
	creds, err := google.FindDefaultCredentialsWithParams(ctx, params)
	if err == nil {
		return creds, nil
	}
	raw := os.Getenv("GOOGLE_CREDENTIALS")
	if raw == "" {
		return nil, err
	}
	data := []byte(raw)
	if !strings.HasPrefix(strings.TrimSpace(raw), "{") {
		if data, err = os.ReadFile(raw); err != nil { //nolint:gosec // the user's own credentials file, as GOOGLE_APPLICATION_CREDENTIALS
			return nil, fmt.Errorf("GOOGLE_CREDENTIALS: %w", err)
		}
	}
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("GOOGLE_CREDENTIALS: %w", err)
	}
	switch t := google.CredentialsType(head.Type); t {
	case google.ServiceAccount, google.AuthorizedUser, google.ExternalAccount, google.ImpersonatedServiceAccount:
		return google.CredentialsFromJSONWithTypeAndParams(ctx, data, t, params)
	}
	return nil, fmt.Errorf("GOOGLE_CREDENTIALS: unsupported credential type %q", head.Type)
}

func (g *gcpTokens) load(ctx context.Context) {
	// the token source outlives the operation that first needed it
	ctx = context.WithoutCancel(ctx)
	scope := gcpSQLLoginScope
	if g.impersonate != "" {
		scope = gcpCloudPlatform // to call the IAM credentials API
	}
	creds, err := gcpCredentials(ctx, scope)
	if err != nil {
		g.err = fmt.Errorf("finding Google credentials: %w", err)
		return
	}
	g.ts = creds.TokenSource // renewed by the library gcpEarlyRefresh before expiry
	if g.impersonate != "" {
		g.ts = oauth2.ReuseTokenSourceWithExpiry(nil, &impersonatedTokens{ctx: ctx, target: g.impersonate, source: creds.TokenSource}, gcpEarlyRefresh)
	}
}

// gcpEarlyRefresh: the Google libraries' own token caches renew a token this
// long before it expires, a little earlier than tokenCache asks for a new one,
// so that the token it then gets is a fresh one.
const gcpEarlyRefresh = tokenRenewMargin + time.Minute

func (g *gcpTokens) Token(ctx context.Context) (string, time.Time, error) {
	g.once.Do(func() { g.load(ctx) })
	if g.err != nil {
		return "", time.Time{}, g.err
	}
	t, err := g.ts.Token()
	if err != nil {
		return "", time.Time{}, err
	}
	return t.AccessToken, t.Expiry, nil
}

// impersonatedTokens are access tokens of a service account, made by the IAM
// Service Account Credentials API (generateAccessToken) with the caller's
// credentials; the caller needs roles/iam.serviceAccountTokenCreator on it.
type impersonatedTokens struct {
	ctx    context.Context
	target string
	scope  string // "" = sqlservice.login
	source oauth2.TokenSource
}

func iamCredentialsEndpoint() string {
	if e := os.Getenv(gcpImpersonateEnvVar); e != "" {
		return strings.TrimSuffix(e, "/")
	}
	return "https://iamcredentials.googleapis.com"
}

func (it *impersonatedTokens) Token() (*oauth2.Token, error) {
	scope := it.scope
	if scope == "" {
		scope = gcpSQLLoginScope
	}
	body, _ := json.Marshal(map[string]any{"scope": []string{scope}, "lifetime": "3600s"})
	u := iamCredentialsEndpoint() + "/v1/projects/-/serviceAccounts/" + url.PathEscape(it.target) + ":generateAccessToken"
	ctx, cancel := context.WithTimeout(it.ctx, time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := oauth2.NewClient(ctx, it.source).Do(req)
	if err != nil {
		return nil, fmt.Errorf("impersonating %s: %w", it.target, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("impersonating %s: %w", it.target, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("impersonating %s: %s: %s", it.target, resp.Status, strings.TrimSpace(string(b)))
	}
	var out struct {
		AccessToken string    `json:"accessToken"`
		ExpireTime  time.Time `json:"expireTime"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("impersonating %s: decoding the answer: %w", it.target, err)
	}
	return &oauth2.Token{AccessToken: out.AccessToken, TokenType: "Bearer", Expiry: out.ExpireTime}, nil
}

// --- Azure Entra ID --------------------------------------------------------

type azureTokens struct {
	tenant      string
	environment string       // "" = AzurePublic
	httpClient  *http.Client // carries the credential's requests (nil: the SDK's)

	once sync.Once
	cred azcore.TokenCredential
	err  error
}

// azurePublicAuthorities are the Entra ID hosts of Azure's public clouds;
// instance discovery is skipped for any other AZURE_AUTHORITY_HOST (a
// disconnected or private cloud, as the SDK advises).
var azurePublicAuthorities = map[string]bool{
	"login.microsoftonline.com": true, "login.chinacloudapi.cn": true, "login.microsoftonline.us": true,
}

// azureCloud is the authority and token scope of the configured Azure cloud.
func (a *azureTokens) azureCloud() (cloud.Configuration, string) {
	env := a.environment
	if env == "" {
		env = pgconn.AzurePublic
	}
	c := azureClouds[env]
	return c.cloud, c.scope
}

func (a *azureTokens) load() {
	opts := &azidentity.DefaultAzureCredentialOptions{TenantID: a.tenant}
	opts.Cloud, _ = a.azureCloud()
	if h := os.Getenv("AZURE_AUTHORITY_HOST"); h != "" {
		// as the SDK does without a configured cloud: the variable names
		// the authority (a private cloud, Azure Stack)
		opts.Cloud.ActiveDirectoryAuthorityHost = h
		if u, err := url.Parse(h); err == nil && !azurePublicAuthorities[strings.ToLower(u.Hostname())] {
			opts.DisableInstanceDiscovery = true
		}
	}
	if a.httpClient != nil {
		opts.Transport = a.httpClient
	}
	a.cred, a.err = azidentity.NewDefaultAzureCredential(opts)
}

func (a *azureTokens) Token(ctx context.Context) (string, time.Time, error) {
	a.once.Do(a.load)
	if a.err != nil {
		return "", time.Time{}, a.err
	}
	_, scope := a.azureCloud()
	t, err := a.cred.GetToken(ctx, policy.TokenRequestOptions{Scopes: []string{scope}, TenantID: a.tenant})
	if err != nil {
		return "", time.Time{}, err
	}
	return t.Token, t.ExpiresOn, nil
}
