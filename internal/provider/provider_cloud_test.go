package provider

import (
	"context"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn/cloudlogin"
)

// Cloud login acceptance tests. Each stands in for the cloud's credential
// service locally (httptest), makes the token the provider will get the
// password (a SCRAM verifier) of a login role of the throwaway cluster, and
// has real Terraform apply a role through a provider that logs in as that
// role over TCP (scram-sha-256 in the cluster's pg_hba.conf): the apply works
// only if the provider presented exactly that token. The role is created by
// the admin of the current mode (on PostgreSQL 16+ the managed admin then
// manages it). Afterwards the provider's TRACE log and the state are scanned
// for the token.

// cloudLoginRole creates a login role whose password is token.
func cloudLoginRole(t *testing.T, name, token string) {
	t.Helper()
	v, err := pg.ScramVerifier(token)
	if err != nil {
		t.Fatal(err)
	}
	stmt := "CREATE ROLE " + pgconn.QuoteIdent(name) + " LOGIN CREATEROLE PASSWORD " + pgconn.QuoteLiteral(v)
	if acctest.Managed() {
		acctest.AdminExec(t, "", stmt)
	} else {
		acctest.Exec(t, "", stmt)
	}
	t.Cleanup(func() { acctest.Exec(t, "", "DROP ROLE IF EXISTS "+pgconn.QuoteIdent(name)) })
}

// cloudLoginConfig is a provider logging in as user over TCP with the given
// cloud login arguments, and a role to create.
func cloudLoginConfig(user, args, role string) string {
	return fmt.Sprintf(`
provider "postgresql" {
  host      = "127.0.0.1"
  username  = %q
  sslmode   = "disable"
  superuser = false
%s
}
resource "postgresql_role" "r" { name = %q }
`, user, args, role)
}

// testCloudLogin applies cfg (cloudLoginConfig) as login, whose password is
// token, then checks that the role was created, that the token is in neither
// the state nor the provider's log, and that a configuration whose token is
// another (wrong) fails to log in. Extra env is set for the whole test (an
// empty value unsets the variable).
func testCloudLogin(t *testing.T, login, token, role, args, wrongArgs string, env map[string]string) {
	t.Helper()
	acctest.PreCheck(t)
	for k, v := range env {
		t.Setenv(k, v) // restored after the test
		if v == "" {
			_ = os.Unsetenv(k) // some SDKs tell unset from empty
		}
	}
	logPath := acctest.ProviderLogToFile(t)
	steps := []resource.TestStep{{
		Config: cloudLoginConfig(login, args, role),
		Check: func(s *terraform.State) error {
			if !roleExists(t, role) {
				return fmt.Errorf("role %q was not created", role)
			}
			return acctest.StateDoesNotContain(s, token)
		},
	}}
	if wrongArgs != "" {
		steps = append(steps, resource.TestStep{
			Config:      cloudLoginConfig(login, wrongArgs, role),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`password\s+authentication\s+failed`),
		}, resource.TestStep{Config: cloudLoginConfig(login, args, role), PlanOnly: true}) // and destroy with the right one
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { cloudLoginRole(t, login, token) },
		ProtoV6ProviderFactories: testFactories(WithCloudLogin(cloudLoginSeams(t)...)),
		CheckDestroy:             checkRoleGone(t, role),
		Steps:                    steps,
	})
	if t.Failed() {
		return
	}
	if !acctest.FileContains(t, logPath, "fetched a cloud login token") {
		t.Fatalf("the provider log %s does not show the token being fetched: the scan would prove nothing", logPath)
	}
	// the token, and the credentials that got it
	secrets := map[string]string{"cloud login token": token}
	for k, v := range env {
		if v != "" && (strings.Contains(k, "SECRET") || strings.Contains(k, "SESSION_TOKEN")) {
			secrets[k] = v
		}
	}
	if found := acctest.FileContainsAny(t, logPath, secrets); len(found) > 0 {
		t.Errorf("the provider's TRACE log %s contains secrets: %s", logPath, strings.Join(found, ", "))
	}
}

// --- AWS RDS IAM -------------------------------------------------------------

// cloudLoginOptions holds the cloud login seams of each test (setCloudLogin),
// for the provider testCloudLogin serves.
var cloudLoginOptions sync.Map // *testing.T -> []cloudlogin.Option

// setCloudLogin gives the provider of test t's testCloudLogin the cloud login seams opts.
func setCloudLogin(t *testing.T, opts ...cloudlogin.Option) {
	prev, _ := cloudLoginOptions.Load(t)
	list, _ := prev.([]cloudlogin.Option)
	cloudLoginOptions.Store(t, append(list, opts...))
	t.Cleanup(func() { cloudLoginOptions.Delete(t) })
}

// cloudLoginSeams are the cloud login seams of test t (setCloudLogin).
func cloudLoginSeams(t *testing.T) []cloudlogin.Option {
	v, _ := cloudLoginOptions.Load(t)
	list, _ := v.([]cloudlogin.Option)
	return list
}

// fixedAWSClock fixes the clock that signs RDS tokens for the test, so the
// token is known in advance.
func fixedAWSClock(t *testing.T) time.Time {
	at := time.Now().UTC().Truncate(time.Second)
	setCloudLogin(t, cloudlogin.WithClock(func() time.Time { return at }))
	return at
}

// rdsToken signs the RDS IAM token as AWS documents it (a SigV4 presigned
// "connect" request for user, valid 900 s, without its scheme),
// independently of the provider's code.
func rdsToken(t *testing.T, user, region string, creds aws.Credentials, at time.Time) string {
	t.Helper()
	return rdsTokenFor(t, "127.0.0.1:"+os.Getenv("PGPORT"), user, region, creds, at)
}

// rdsTokenFor is rdsToken for another endpoint (host:port).
func rdsTokenFor(t *testing.T, endpoint, user, region string, creds aws.Credentials, at time.Time) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, "https://"+endpoint, nil)
	if err != nil {
		t.Fatal(err)
	}
	q := req.URL.Query()
	q.Set("Action", "connect")
	q.Set("DBUser", user)
	q.Set("X-Amz-Expires", "900")
	req.URL.RawQuery = q.Encode()
	const emptyPayload = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	u, _, err := v4.NewSigner().PresignHTTP(context.Background(), creds, req, emptyPayload, "rds-db", region, at)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(u, "https://")
}

// awsEnv isolates the AWS SDK from the machine's configuration: credentials
// from the environment only, no shared files, no instance metadata.
func awsEnv(t *testing.T, extra map[string]string) map[string]string {
	dir := t.TempDir()
	env := map[string]string{
		"AWS_CONFIG_FILE": filepath.Join(dir, "none"), "AWS_SHARED_CREDENTIALS_FILE": filepath.Join(dir, "none"),
		"AWS_EC2_METADATA_DISABLED": "true", "AWS_PROFILE": "", "AWS_REGION": "", "AWS_DEFAULT_REGION": "",
		"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_SESSION_TOKEN": "", "AWS_ENDPOINT_URL": "", "AWS_ENDPOINT_URL_STS": "",
	}
	maps.Copy(env, extra)
	return env
}

// TestAccProvider_awsRDSIAMAuth: aws_rds_iam_auth with credentials from the
// environment and aws_rds_iam_region: the token signed for username at
// host:port is the password. Another region signs another token, which the
// server refuses.
func TestAccProvider_awsRDSIAMAuth(t *testing.T) {
	login, role := acctest.RandName("rds_iam_login"), acctest.RandName("role_rds_iam")
	at := fixedAWSClock(t)
	creds := aws.Credentials{AccessKeyID: "AKIDTFACCENV", SecretAccessKey: "tfacc/env+secret", Source: "test"}
	token := rdsToken(t, login, "eu-west-3", creds, at)
	testCloudLogin(t, login, token, role,
		`  aws_rds_iam_auth   = true
  aws_rds_iam_region = "eu-west-3"`,
		`  aws_rds_iam_auth   = true
  aws_rds_iam_region = "eu-west-1"`,
		awsEnv(t, map[string]string{"AWS_ACCESS_KEY_ID": creds.AccessKeyID, "AWS_SECRET_ACCESS_KEY": creds.SecretAccessKey}))
}

// TestAccProvider_awsRDSIAMEndpoint: aws_rds_iam_endpoint: the provider
// connects through a tunnel (a local relay to the server: host and port are
// the tunnel's) while the token is signed for the RDS endpoint named there,
// whose host name also gives the region. A token signed for another port of
// the endpoint is refused.
func TestAccProvider_awsRDSIAMEndpoint(t *testing.T) {
	login, role := acctest.RandName("rds_iam_ep"), acctest.RandName("role_rds_ep")
	at := fixedAWSClock(t)
	creds := aws.Credentials{AccessKeyID: "AKIDTFACCTUNNEL", SecretAccessKey: "tunnel/secret", Source: "test"}
	tunnel := acctest.StartTunnel(t, "127.0.0.1:"+os.Getenv("PGPORT"))
	const endpoint = "tfacc-db.c9akciq32abc.eu-central-1.rds.amazonaws.com"
	token := rdsTokenFor(t, endpoint+":5432", login, "eu-central-1", creds, at)
	testCloudLogin(t, login, token, role,
		fmt.Sprintf(`  port                 = %d
  aws_rds_iam_auth     = true
  aws_rds_iam_endpoint = "%s:5432"`, tunnel.Port(), endpoint),
		fmt.Sprintf(`  port                 = %d
  aws_rds_iam_auth     = true
  aws_rds_iam_endpoint = "%s:5433"`, tunnel.Port(), endpoint),
		awsEnv(t, map[string]string{"AWS_ACCESS_KEY_ID": creds.AccessKeyID, "AWS_SECRET_ACCESS_KEY": creds.SecretAccessKey}))
	if tunnel.Connections() == 0 {
		t.Error("no connection went through the tunnel")
	}
}

// TestAccProvider_awsRDSIAMProfile: aws_rds_iam_profile: the profile's
// credentials (shared credentials file) and region (shared config file) sign
// the token, not the environment's credentials.
func TestAccProvider_awsRDSIAMProfile(t *testing.T) {
	login, role := acctest.RandName("rds_iam_profile"), acctest.RandName("role_rds_profile")
	at := fixedAWSClock(t)
	dir := t.TempDir()
	cfgFile, credFile := filepath.Join(dir, "config"), filepath.Join(dir, "credentials")
	if err := os.WriteFile(cfgFile, []byte("[profile tfacc]\nregion = ap-southeast-2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(credFile, []byte("[tfacc]\naws_access_key_id = AKIDTFACCPROFILE\naws_secret_access_key = profile/secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	token := rdsToken(t, login, "ap-southeast-2", aws.Credentials{AccessKeyID: "AKIDTFACCPROFILE", SecretAccessKey: "profile/secret"}, at)
	testCloudLogin(t, login, token, role,
		`  aws_rds_iam_auth    = true
  aws_rds_iam_profile = "tfacc"`,
		`  aws_rds_iam_auth    = true`, // the environment's credentials
		awsEnv(t, map[string]string{
			"AWS_CONFIG_FILE": cfgFile, "AWS_SHARED_CREDENTIALS_FILE": credFile,
			"AWS_ACCESS_KEY_ID": "AKIDTFACCENV", "AWS_SECRET_ACCESS_KEY": "env/secret", "AWS_REGION": "ap-southeast-2",
		}))
}

// TestAccProvider_awsRDSIAMAssumeRole: aws_rds_iam_provider_role_arn: the
// provider assumes the role with STS (a local stand-in reached through
// AWS_ENDPOINT_URL_STS, which checks the call is signed with the
// environment's credentials and names the role and the session), and the
// assumed credentials sign the token.
func TestAccProvider_awsRDSIAMAssumeRole(t *testing.T) {
	login, role := acctest.RandName("rds_iam_role"), acctest.RandName("role_rds_role")
	at := fixedAWSClock(t)
	const roleARN = "arn:aws:iam::123456789012:role/tfacc-db"
	assumed := aws.Credentials{AccessKeyID: "ASIATFACCASSUMED", SecretAccessKey: "assumed/secret", SessionToken: "assumed-session+token/="}
	var calls atomic.Int32
	sts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		if r.Form.Get("Action") != "AssumeRole" || r.Form.Get("RoleArn") != roleARN || r.Form.Get("RoleSessionName") != "TerraformPostgresqlProvider" ||
			!strings.Contains(r.Header.Get("Authorization"), "Credential=AKIDTFACCBASE/") {
			t.Errorf("unexpected STS request: %v %s", r.Form, r.Header.Get("Authorization"))
			http.Error(w, "<ErrorResponse><Error><Code>AccessDenied</Code><Message>unexpected</Message></Error></ErrorResponse>", http.StatusForbidden)
			return
		}
		calls.Add(1)
		w.Header().Set("Content-Type", "text/xml")
		fmt.Fprintf(w, `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
<AssumeRoleResult><Credentials><AccessKeyId>%s</AccessKeyId><SecretAccessKey>%s</SecretAccessKey><SessionToken>%s</SessionToken><Expiration>%s</Expiration></Credentials>
<AssumedRoleUser><Arn>%s/TerraformPostgresqlProvider</Arn><AssumedRoleId>AROATFACC:TerraformPostgresqlProvider</AssumedRoleId></AssumedRoleUser></AssumeRoleResult>
<ResponseMetadata><RequestId>tfacc</RequestId></ResponseMetadata></AssumeRoleResponse>`,
			assumed.AccessKeyID, assumed.SecretAccessKey, assumed.SessionToken, time.Now().Add(time.Hour).UTC().Format(time.RFC3339), roleARN)
	}))
	defer sts.Close()
	token := rdsToken(t, login, "us-west-2", assumed, at)
	testCloudLogin(t, login, token, role,
		fmt.Sprintf(`  aws_rds_iam_auth              = true
  aws_rds_iam_region            = "us-west-2"
  aws_rds_iam_provider_role_arn = %q`, roleARN),
		`  aws_rds_iam_auth   = true
  aws_rds_iam_region = "us-west-2"`, // the base credentials' token
		awsEnv(t, map[string]string{
			"AWS_ACCESS_KEY_ID": "AKIDTFACCBASE", "AWS_SECRET_ACCESS_KEY": "base/secret", "AWS_ENDPOINT_URL_STS": sts.URL,
		}))
	if calls.Load() == 0 {
		t.Error("the provider never called STS AssumeRole")
	}
}

// TestResolveConfigCloudAuth: the cloud login arguments resolve into the
// client's login method with cyrilgdn's meanings; token logins default to
// sslmode require; unknown values are recorded, never defaulted; Cloud SQL
// instance connection names are refused with an explanation.
func TestResolveConfigCloudAuth(t *testing.T) {
	s, b := types.StringValue, types.BoolValue
	for _, tc := range []struct {
		name    string
		m       providerModel
		env     map[string]string
		want    *pgconn.CloudAuth
		sql     *pgconn.CloudSQL
		pw      string
		sslmode string
		unknown []string
		errHas  string
	}{
		{name: "none", sslmode: "prefer"},
		{name: "awspostgres: TLS required", m: providerModel{Scheme: s("awspostgres")}, sslmode: "require"},
		{name: "awspostgres: PGSSLMODE wins", m: providerModel{Scheme: s("awspostgres")}, env: map[string]string{"PGSSLMODE": "verify-full"}, sslmode: "verify-full"},
		{
			name: "aws", m: providerModel{AWSRDSIAMAuth: b(true), AWSRDSIAMProfile: s("p"), AWSRDSIAMRegion: s("eu-west-1"), AWSRDSIAMProviderRoleARN: s("arn:r"), Password: s("ignored")},
			want: &pgconn.CloudAuth{Method: pgconn.AuthAWSRDSIAM, AWSProfile: "p", AWSRegion: "eu-west-1", AWSRoleARN: "arn:r"}, sslmode: "require",
		},
		{name: "aws false", m: providerModel{AWSRDSIAMAuth: b(false), AWSRDSIAMRegion: s("eu-west-1")}, sslmode: "prefer"},
		{
			name: "aws, sslmode set", m: providerModel{AWSRDSIAMAuth: b(true), SSLMode: s("verify-full")},
			want: &pgconn.CloudAuth{Method: pgconn.AuthAWSRDSIAM}, sslmode: "verify-full",
		},
		{name: "aws unknown", m: providerModel{AWSRDSIAMAuth: types.BoolUnknown()}, sslmode: "prefer", unknown: []string{"aws_rds_iam_auth"}},
		{
			name: "aws region unknown", m: providerModel{AWSRDSIAMAuth: b(true), AWSRDSIAMRegion: types.StringUnknown()},
			want: &pgconn.CloudAuth{Method: pgconn.AuthAWSRDSIAM}, sslmode: "require", unknown: []string{"aws_rds_iam_region"},
		},
		{name: "azure without tenant", m: providerModel{AzureIdentityAuth: b(true)}, errHas: "azure_tenant_id"},
		{name: "azure", m: providerModel{AzureIdentityAuth: b(true), AzureTenantID: s("t")}, want: &pgconn.CloudAuth{Method: pgconn.AuthAzure, AzureTenantID: "t"}, sslmode: "require"},
		{name: "azure tenant unknown", m: providerModel{AzureIdentityAuth: b(true), AzureTenantID: types.StringUnknown()}, want: &pgconn.CloudAuth{Method: pgconn.AuthAzure}, sslmode: "require", unknown: []string{"azure_tenant_id"}},
		{name: "gcp", m: providerModel{Scheme: s("gcppostgres"), Host: s("10.1.2.3")}, want: &pgconn.CloudAuth{Method: pgconn.AuthGCPIAM}, sslmode: "require"},
		{name: "gcp, PGPASSWORD is no built-in user's password", m: providerModel{Scheme: s("gcppostgres")}, env: map[string]string{"PGPASSWORD": "pw"}, want: &pgconn.CloudAuth{Method: pgconn.AuthGCPIAM}, sslmode: "require"},
		{name: "gcp built-in user", m: providerModel{Scheme: s("gcppostgres"), Password: s("pw")}, sslmode: "require"},
		{
			name: "gcp impersonation", m: providerModel{Scheme: s("gcppostgres"), Host: s("/cloudsql/p:r:i"), GCPIAMImpersonateSA: s("sa@p.iam.gserviceaccount.com"), Password: s("pw")},
			want: &pgconn.CloudAuth{Method: pgconn.AuthGCPIAM, GCPImpersonateServiceAccount: "sa@p.iam.gserviceaccount.com"}, sslmode: "require",
		},
		{
			name: "gcp connection name: the connector, IAM login", m: providerModel{Scheme: s("gcppostgres"), Host: s("proj:europe-west1:inst")}, env: map[string]string{"PGPASSWORD": "pw"},
			sql: &pgconn.CloudSQL{Instance: "proj:europe-west1:inst", IAMAuthN: true}, sslmode: "require",
		},
		{
			name: "gcp connection name with slashes (cyrilgdn's other spelling)", m: providerModel{Scheme: s("gcppostgres"), GCPIPType: s("private")}, env: map[string]string{"PGHOST": "proj/europe-west1/inst"},
			sql: &pgconn.CloudSQL{Instance: "proj:europe-west1:inst", IPType: "private", IAMAuthN: true}, sslmode: "require",
		},
		{
			name: "gcp connection name, built-in user", m: providerModel{Scheme: s("gcppostgres"), Host: s("example.com:proj:europe-west1:inst"), Password: s("pw")},
			env: map[string]string{"PGTF_GCP_SQLADMIN_API_ENDPOINT": "http://127.0.0.1:1/"},
			sql: &pgconn.CloudSQL{Instance: "example.com:proj:europe-west1:inst", AdminAPIEndpoint: "http://127.0.0.1:1/"}, pw: "pw", sslmode: "require",
		},
		{
			name: "gcp connection name, impersonation", m: providerModel{Scheme: s("gcppostgres"), Host: s("proj:europe-west1:inst"), Password: s("pw"), GCPIAMImpersonateSA: s("sa@p.iam.gserviceaccount.com")},
			sql: &pgconn.CloudSQL{Instance: "proj:europe-west1:inst", IAMAuthN: true, ImpersonateServiceAccount: "sa@p.iam.gserviceaccount.com"}, sslmode: "require",
		},
		{name: "gcp connection name with a client certificate", m: providerModel{Scheme: s("gcppostgres"), Host: s("proj:europe-west1:inst"), ClientCert: []clientCertModel{{Cert: s("c"), Key: s("k")}}}, errHas: "Certificates"},
		{name: "gcp bad connection name", m: providerModel{Scheme: s("gcppostgres"), Host: s("proj:inst")}, errHas: "not a Cloud SQL instance connection name"},
		{name: "gcp host unknown", m: providerModel{Scheme: s("gcppostgres"), Host: types.StringUnknown()}, want: &pgconn.CloudAuth{Method: pgconn.AuthGCPIAM}, sslmode: "require", unknown: []string{"host"}},
		{
			name: "aws endpoint", m: providerModel{AWSRDSIAMAuth: b(true), AWSRDSIAMEndpoint: s("db.abc.eu-west-3.rds.amazonaws.com:5432")},
			want: &pgconn.CloudAuth{Method: pgconn.AuthAWSRDSIAM, AWSEndpoint: "db.abc.eu-west-3.rds.amazonaws.com:5432"}, sslmode: "require",
		},
		{name: "aws bad endpoint", m: providerModel{AWSRDSIAMAuth: b(true), AWSRDSIAMEndpoint: s("db:99999")}, errHas: "aws_rds_iam_endpoint"},
		{
			name: "azure china", m: providerModel{AzureIdentityAuth: b(true), AzureTenantID: s("t"), AzureEnvironment: s("china")}, env: map[string]string{"ARM_ENVIRONMENT": "usgovernment"},
			want: &pgconn.CloudAuth{Method: pgconn.AuthAzure, AzureTenantID: "t", AzureEnvironment: "china"}, sslmode: "require",
		},
		{
			name: "azure environment from ARM_ENVIRONMENT", m: providerModel{AzureIdentityAuth: b(true), AzureTenantID: s("t")}, env: map[string]string{"ARM_ENVIRONMENT": "USGovernment"},
			want: &pgconn.CloudAuth{Method: pgconn.AuthAzure, AzureTenantID: "t", AzureEnvironment: "usgovernment"}, sslmode: "require",
		},
		{
			name: "azure: ARM_ENVIRONMENT of another cloud is not used", m: providerModel{AzureIdentityAuth: b(true), AzureTenantID: s("t")}, env: map[string]string{"ARM_ENVIRONMENT": "german"},
			want: &pgconn.CloudAuth{Method: pgconn.AuthAzure, AzureTenantID: "t"}, sslmode: "require",
		},
		{name: "gcp IPv6", m: providerModel{Scheme: s("gcppostgres"), Host: s("fd00::3")}, want: &pgconn.CloudAuth{Method: pgconn.AuthGCPIAM}, sslmode: "require"},
		{name: "scheme unknown", m: providerModel{Scheme: types.StringUnknown()}, sslmode: "prefer", unknown: []string{"scheme"}},
	} {
		cfg, cerr := resolveConfig(tc.m, func(k string) string { return tc.env[k] })
		if tc.errHas != "" {
			if cerr == nil || !strings.Contains(cerr.summary+cerr.detail, tc.errHas) {
				t.Errorf("%s: error %+v, want one about %q", tc.name, cerr, tc.errHas)
			}
			continue
		}
		if cerr != nil {
			t.Errorf("%s: %s: %s", tc.name, cerr.summary, cerr.detail)
			continue
		}
		if diff := cmp.Diff(tc.want, cfg.CloudAuth); diff != "" {
			t.Errorf("%s: CloudAuth (-want +got):\n%s", tc.name, diff)
		}
		if diff := cmp.Diff(tc.sql, cfg.CloudSQL); diff != "" {
			t.Errorf("%s: CloudSQL (-want +got):\n%s", tc.name, diff)
		}
		if tc.sql != nil && cfg.Password != tc.pw {
			t.Errorf("%s: password %q, want %q", tc.name, cfg.Password, tc.pw)
		}
		if cfg.SSLMode != tc.sslmode {
			t.Errorf("%s: sslmode %q, want %q", tc.name, cfg.SSLMode, tc.sslmode)
		}
		if diff := cmp.Diff(tc.unknown, cfg.Unknown); diff != "" {
			t.Errorf("%s: unknown (-want +got):\n%s", tc.name, diff)
		}
	}
}

// --- Google Cloud SQL IAM ----------------------------------------------------

// googleStandIn is a local OAuth2 token endpoint for a service account key
// (the JWT bearer grant of the key's token_uri) and a local IAM Service
// Account Credentials API (generateAccessToken). It checks the key's
// signature and the scopes asked for, and answers with tokens it names by
// scope.
type googleStandIn struct {
	t        *testing.T
	srv      *httptest.Server
	key      *rsa.PrivateKey
	email    string
	tokens   map[string]string // scope -> access token of the service account
	imp      map[string]string // impersonated account -> its token (sqlservice.login); account + " " + scope -> its token of another scope
	impCalls atomic.Int32
}

func newGoogleStandIn(t *testing.T) *googleStandIn {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	g := &googleStandIn{t: t, key: key, email: "tfacc-sa@tfacc-proj.iam.gserviceaccount.com", tokens: map[string]string{}, imp: map[string]string{}}
	g.srv = httptest.NewServer(http.HandlerFunc(g.serve))
	t.Cleanup(g.srv.Close)
	return g
}

// keyFile writes the service account key file, whose token_uri is the stand-in.
func (g *googleStandIn) keyFile() string {
	der, err := x509.MarshalPKCS8PrivateKey(g.key)
	if err != nil {
		g.t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]string{
		"type": "service_account", "project_id": "tfacc-proj", "private_key_id": "tfacc-key-1",
		"private_key":  string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})),
		"client_email": g.email, "client_id": "1234567890", "token_uri": g.srv.URL + "/token",
	})
	p := filepath.Join(g.t.TempDir(), "sa.json")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		g.t.Fatal(err)
	}
	return p
}

func (g *googleStandIn) serve(w http.ResponseWriter, r *http.Request) {
	fail := func(format string, args ...any) {
		g.t.Errorf("Google stand-in: "+format, args...)
		http.Error(w, `{"error":"invalid_request"}`, http.StatusBadRequest)
	}
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/token":
		_ = r.ParseForm()
		if r.Form.Get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer" {
			fail("grant_type %q", r.Form.Get("grant_type"))
			return
		}
		parts := strings.Split(r.Form.Get("assertion"), ".")
		if len(parts) != 3 {
			fail("assertion is no JWT")
			return
		}
		sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
		sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
		if err := rsa.VerifyPKCS1v15(&g.key.PublicKey, crypto.SHA256, sum[:], sig); err != nil {
			fail("assertion signature: %v", err)
			return
		}
		var claims struct {
			Iss, Scope, Aud string
		}
		payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
		_ = json.Unmarshal(payload, &claims)
		tok, ok := g.tokens[claims.Scope]
		if claims.Iss != g.email || claims.Aud != g.srv.URL+"/token" || !ok {
			fail("claims %+v", claims)
			return
		}
		fmt.Fprintf(w, `{"access_token":%q,"token_type":"Bearer","expires_in":3600}`, tok)
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/v1/projects/-/serviceAccounts/") && strings.HasSuffix(r.URL.Path, ":generateAccessToken"):
		target := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/v1/projects/-/serviceAccounts/"), ":generateAccessToken")
		var body struct {
			Scope []string `json:"scope"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		tok, ok := g.imp[target]
		if len(body.Scope) == 1 && body.Scope[0] != "https://www.googleapis.com/auth/sqlservice.login" {
			// another scope (the Cloud SQL Admin API's): only when the test names it
			tok, ok = g.imp[target+" "+body.Scope[0]]
			body.Scope[0] = "https://www.googleapis.com/auth/sqlservice.login"
		}
		if !ok || r.Header.Get("Authorization") != "Bearer "+g.tokens["https://www.googleapis.com/auth/cloud-platform"] ||
			len(body.Scope) != 1 || body.Scope[0] != "https://www.googleapis.com/auth/sqlservice.login" {
			fail("generateAccessToken for %q with %q, scopes %v", target, r.Header.Get("Authorization"), body.Scope)
			return
		}
		g.impCalls.Add(1)
		fmt.Fprintf(w, `{"accessToken":%q,"expireTime":%q}`, tok, time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
	default:
		fail("unexpected request %s %s", r.Method, r.URL)
	}
}

func googleEnv(keyFile string, extra map[string]string) map[string]string {
	env := map[string]string{"GOOGLE_APPLICATION_CREDENTIALS": keyFile, "GOOGLE_CREDENTIALS": "", "PGTF_GCP_IAM_CREDENTIALS_ENDPOINT": ""}
	maps.Copy(env, extra)
	return env
}

// TestAccProvider_gcpIAMAuth: scheme = "gcppostgres": the Application
// Default Credentials (a service account key whose token_uri is the local
// stand-in) get an access token for the sqlservice.login scope, which is the
// password. With a password set, it is used as such instead (a built-in
// user), and the server refuses it.
func TestAccProvider_gcpIAMAuth(t *testing.T) {
	login, role := acctest.RandName("gcp_iam_login"), acctest.RandName("role_gcp_iam")
	g := newGoogleStandIn(t)
	token := "ya29.tfacc-" + acctest.RandName("gcp")
	g.tokens["https://www.googleapis.com/auth/sqlservice.login"] = token
	testCloudLogin(t, login, token, role,
		`  scheme = "gcppostgres"`,
		`  scheme   = "gcppostgres"
  password = "a-built-in-user-password"`,
		googleEnv(g.keyFile(), nil))
}

// TestAccProvider_gcpIAMImpersonation: gcp_iam_impersonate_service_account:
// the Application Default Credentials (cloud-platform scope) ask the IAM
// Service Account Credentials API (the local stand-in, through
// PGTF_GCP_IAM_CREDENTIALS_ENDPOINT) for the impersonated account's token,
// which is the password; the credentials' own token is refused.
func TestAccProvider_gcpIAMImpersonation(t *testing.T) {
	login, role := acctest.RandName("gcp_iam_imp"), acctest.RandName("role_gcp_imp")
	const target = "tfacc-db@tfacc-proj.iam.gserviceaccount.com"
	g := newGoogleStandIn(t)
	g.tokens["https://www.googleapis.com/auth/cloud-platform"] = "ya29.tfacc-source-" + acctest.RandName("gcp")
	g.tokens["https://www.googleapis.com/auth/sqlservice.login"] = "ya29.tfacc-own-" + acctest.RandName("gcp")
	token := "ya29.tfacc-impersonated-" + acctest.RandName("gcp")
	g.imp[target] = token
	testCloudLogin(t, login, token, role,
		fmt.Sprintf(`  scheme                              = "gcppostgres"
  gcp_iam_impersonate_service_account = %q`, target),
		`  scheme = "gcppostgres"`,
		googleEnv(g.keyFile(), map[string]string{"PGTF_GCP_IAM_CREDENTIALS_ENDPOINT": g.srv.URL}))
	if g.impCalls.Load() == 0 {
		t.Error("the provider never called generateAccessToken")
	}
}

// --- Azure Entra ID ----------------------------------------------------------

// TestAccProvider_azureIdentityAuth: azure_identity_auth: the Azure SDK's
// default credential chain (here its environment credential: a client secret)
// gets a token for Azure Database for PostgreSQL from the tenant named by
// azure_tenant_id, at a local Entra ID stand-in (AZURE_AUTHORITY_HOST, HTTPS
// with a test certificate the credential's HTTP client trusts; instance
// discovery is skipped for an authority that is not a public cloud's). The
// token is the password; another tenant's token is refused.
func TestAccProvider_azureIdentityAuth(t *testing.T) {
	login, role := acctest.RandName("azure_login"), acctest.RandName("role_azure")
	const tenant, otherTenant, clientID, secret = "00000000-0000-0000-0000-00000000aaaa", "00000000-0000-0000-0000-00000000bbbb", "tfacc-client", "tfacc-secret"
	tokens := map[string]string{tenant: "eyJ.tfacc-" + acctest.RandName("azure"), otherTenant: "eyJ.tfacc-other-" + acctest.RandName("azure")}
	var tokenCalls atomic.Int32
	var srv *httptest.Server
	srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
		tok, known := tokens[parts[0]]
		switch {
		case known && r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/v2.0/.well-known/openid-configuration"):
			base := srv.URL + "/" + parts[0]
			fmt.Fprintf(w, `{"token_endpoint":%q,"authorization_endpoint":%q,"issuer":%q,"device_authorization_endpoint":%q}`,
				base+"/oauth2/v2.0/token", base+"/oauth2/v2.0/authorize", base+"/v2.0", base+"/oauth2/v2.0/devicecode")
		case known && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/oauth2/v2.0/token"):
			_ = r.ParseForm()
			if r.Form.Get("grant_type") != "client_credentials" || r.Form.Get("client_id") != clientID || r.Form.Get("client_secret") != secret ||
				!strings.Contains(r.Form.Get("scope"), "https://ossrdbms-aad.database.windows.net/.default") {
				t.Errorf("unexpected token request: %v", r.Form)
				http.Error(w, `{"error":"invalid_request"}`, http.StatusBadRequest)
				return
			}
			tokenCalls.Add(1)
			fmt.Fprintf(w, `{"token_type":"Bearer","expires_in":3600,"ext_expires_in":3600,"access_token":%q}`, tok)
		default:
			t.Errorf("Entra ID stand-in: unexpected request %s %s", r.Method, r.URL)
			http.Error(w, `{"error":"invalid_request"}`, http.StatusNotFound)
		}
	}))
	defer srv.Close()
	setCloudLogin(t, cloudlogin.WithAzureHTTPClient(srv.Client()))
	testCloudLogin(t, login, tokens[tenant], role,
		fmt.Sprintf(`  azure_identity_auth = true
  azure_tenant_id     = %q`, tenant),
		fmt.Sprintf(`  azure_identity_auth = true
  azure_tenant_id     = %q`, otherTenant),
		map[string]string{
			"AZURE_CLIENT_ID": clientID, "AZURE_CLIENT_SECRET": secret, "AZURE_TENANT_ID": tenant, "AZURE_AUTHORITY_HOST": srv.URL,
			"AZURE_ADDITIONALLY_ALLOWED_TENANTS": otherTenant, "AZURE_CLIENT_CERTIFICATE_PATH": "", "AZURE_USERNAME": "", "AZURE_TOKEN_CREDENTIALS": "",
			"AZURE_FEDERATED_TOKEN_FILE": "", "IDENTITY_ENDPOINT": "", "MSI_ENDPOINT": "",
		})
	if tokenCalls.Load() == 0 {
		t.Error("the provider never asked the Entra ID stand-in for a token")
	}
}

// TestAccProvider_azureEnvironment: azure_environment = "china" (without
// AZURE_AUTHORITY_HOST): the credential asks Azure China's authority
// (login.chinacloudapi.cn: its requests go to a local stand-in, which
// records the host they named, answers instance discovery and OpenID
// metadata, and issues a token per scope) for a token with Azure China's
// PostgreSQL scope, which is the password. With azure_environment =
// "usgovernment" it asks the US Government authority for that cloud's scope,
// whose token the server refuses.
func TestAccProvider_azureEnvironment(t *testing.T) {
	login, role := acctest.RandName("azure_cn_login"), acctest.RandName("role_azure_cn")
	const tenant, clientID, secret = "00000000-0000-0000-0000-00000000cccc", "tfacc-client-cn", "tfacc-secret-cn"
	scopes := map[string]string{ // scope -> token
		"https://ossrdbms-aad.database.chinacloudapi.cn/.default":  "eyJ.tfacc-china-" + acctest.RandName("azure"),
		"https://ossrdbms-aad.database.usgovcloudapi.net/.default": "eyJ.tfacc-usgov-" + acctest.RandName("azure"),
	}
	var srv *httptest.Server
	var mu sync.Mutex
	var hosts []string
	srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		// the host the credential asked for: its authority
		authority := "https://" + r.Header.Get("X-Tfacc-Authority")
		parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
		switch {
		case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/discovery/instance"):
			host := strings.TrimPrefix(authority, "https://")
			fmt.Fprintf(w, `{"tenant_discovery_endpoint":%q,"api-version":"1.1","metadata":[{"preferred_network":%q,"preferred_cache":%q,"aliases":[%q]}]}`,
				authority+"/"+tenant+"/v2.0/.well-known/openid-configuration", host, host, host)
		case parts[0] == tenant && r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/v2.0/.well-known/openid-configuration"):
			base := authority + "/" + tenant
			fmt.Fprintf(w, `{"token_endpoint":%q,"authorization_endpoint":%q,"issuer":%q,"device_authorization_endpoint":%q}`,
				base+"/oauth2/v2.0/token", base+"/oauth2/v2.0/authorize", base+"/v2.0", base+"/oauth2/v2.0/devicecode")
		case parts[0] == tenant && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/oauth2/v2.0/token"):
			_ = r.ParseForm()
			var tok string
			for _, sc := range strings.Fields(r.Form.Get("scope")) {
				if v, ok := scopes[sc]; ok {
					tok = v
				}
			}
			if r.Form.Get("grant_type") != "client_credentials" || r.Form.Get("client_id") != clientID || r.Form.Get("client_secret") != secret || tok == "" {
				t.Errorf("unexpected token request: %v", r.Form)
				http.Error(w, `{"error":"invalid_request"}`, http.StatusBadRequest)
				return
			}
			fmt.Fprintf(w, `{"token_type":"Bearer","expires_in":3600,"ext_expires_in":3600,"access_token":%q}`, tok)
		default:
			t.Errorf("Entra ID stand-in: unexpected request %s %s", r.Method, r.URL)
			http.Error(w, `{"error":"invalid_request"}`, http.StatusNotFound)
		}
	}))
	defer srv.Close()
	client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		mu.Lock()
		hosts = append(hosts, r.URL.Host)
		mu.Unlock()
		r = r.Clone(r.Context())
		r.Header.Set("X-Tfacc-Authority", r.URL.Host)
		r.URL.Scheme, r.URL.Host, r.Host = "https", strings.TrimPrefix(srv.URL, "https://"), ""
		return srv.Client().Transport.RoundTrip(r)
	})}
	setCloudLogin(t, cloudlogin.WithAzureHTTPClient(client))
	testCloudLogin(t, login, scopes["https://ossrdbms-aad.database.chinacloudapi.cn/.default"], role,
		fmt.Sprintf(`  azure_identity_auth = true
  azure_tenant_id     = %q
  azure_environment   = "china"`, tenant),
		fmt.Sprintf(`  azure_identity_auth = true
  azure_tenant_id     = %q
  azure_environment   = "usgovernment"`, tenant),
		map[string]string{
			"AZURE_CLIENT_ID": clientID, "AZURE_CLIENT_SECRET": secret, "AZURE_TENANT_ID": tenant, "AZURE_AUTHORITY_HOST": "", "ARM_ENVIRONMENT": "",
			"AZURE_ADDITIONALLY_ALLOWED_TENANTS": "", "AZURE_CLIENT_CERTIFICATE_PATH": "", "AZURE_USERNAME": "", "AZURE_TOKEN_CREDENTIALS": "",
			"AZURE_FEDERATED_TOKEN_FILE": "", "IDENTITY_ENDPOINT": "", "MSI_ENDPOINT": "",
		})
	mu.Lock()
	defer mu.Unlock()
	seen := map[string]bool{}
	for _, h := range hosts {
		seen[h] = true
	}
	for _, want := range []string{"login.chinacloudapi.cn", "login.microsoftonline.us"} {
		if !seen[want] {
			t.Errorf("the credential never asked %s (it asked %v)", want, hosts)
		}
	}
	if seen["login.microsoftonline.com"] {
		t.Errorf("the credential asked the public cloud's authority: %v", hosts)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestAccProvider_cloudLoginNoTokenWithoutConnection: configuring the
// provider never fetches a token: an apply that needs no connection makes no
// call to the cloud (here: no STS AssumeRole).
func TestAccProvider_cloudLoginNoTokenWithoutConnection(t *testing.T) {
	acctest.PreCheck(t)
	var calls atomic.Int32
	sts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		calls.Add(1)
		http.Error(w, "unexpected", http.StatusForbidden)
	}))
	defer sts.Close()
	for k, v := range awsEnv(t, map[string]string{"AWS_ACCESS_KEY_ID": "AKIDTFACC", "AWS_SECRET_ACCESS_KEY": "s", "AWS_ENDPOINT_URL_STS": sts.URL}) {
		t.Setenv(k, v)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
provider "postgresql" {
  host                          = "127.0.0.1"
  username                      = "nobody"
  aws_rds_iam_auth              = true
  aws_rds_iam_region            = "eu-west-1"
  aws_rds_iam_provider_role_arn = "arn:aws:iam::123456789012:role/none"
}
resource "terraform_data" "x" { input = "no connection" }
`,
		}},
	})
	if n := calls.Load(); n != 0 {
		t.Errorf("configuring the provider called STS %d times", n)
	}
}

// TestValidateCloudAuth: conflicting or incomplete cloud login arguments are
// errors at validate time; arguments that would be ignored are warnings.
func TestValidateCloudAuth(t *testing.T) {
	s, b := types.StringValue, types.BoolValue
	for _, tc := range []struct {
		name            string
		m               providerModel
		errors, warning string
	}{
		{name: "none"},
		{name: "aws and azure", m: providerModel{AWSRDSIAMAuth: b(true), AzureIdentityAuth: b(true), AzureTenantID: s("t")}, errors: "Conflicting"},
		{name: "gcp and aws", m: providerModel{Scheme: s("gcppostgres"), AWSRDSIAMAuth: b(true)}, errors: "Conflicting"},
		{name: "azure without tenant", m: providerModel{AzureIdentityAuth: b(true)}, errors: "Missing azure_tenant_id"},
		{name: "azure with unknown tenant", m: providerModel{AzureIdentityAuth: b(true), AzureTenantID: types.StringUnknown()}},
		{name: "gcp connection name: the connector", m: providerModel{Scheme: s("gcppostgres"), Host: s("p:r:i")}},
		{name: "gcp connection name with slashes", m: providerModel{Scheme: s("gcppostgres"), Host: s("p/r/i"), GCPIPType: s("psc")}},
		{name: "gcp bad connection name", m: providerModel{Scheme: s("gcppostgres"), Host: s("p:i")}, errors: "Invalid Cloud SQL instance connection name"},
		{name: "gcp connection name with sslrootcert", m: providerModel{Scheme: s("gcppostgres"), Host: s("p:r:i"), SSLRootCert: s("/ca.pem")}, errors: "sslrootcert with the Cloud SQL connector"},
		{name: "connection name without gcppostgres", m: providerModel{Host: s("p:r:i")}, warning: "without the gcppostgres scheme"},
		{name: "gcp_ip_type with an address", m: providerModel{Scheme: s("gcppostgres"), Host: s("10.0.0.5"), GCPIPType: s("private")}, warning: "Argument not used"},
		{name: "azure_environment without azure", m: providerModel{AzureEnvironment: s("china")}, warning: "Argument not used"},
		{name: "aws endpoint without a host", m: providerModel{AWSRDSIAMAuth: b(true), AWSRDSIAMEndpoint: s(":5432")}, errors: "Invalid aws_rds_iam_endpoint"},
		{name: "gcp address", m: providerModel{Scheme: s("gcppostgres"), Host: s("10.0.0.5")}},
		{name: "impersonation without gcppostgres", m: providerModel{GCPIAMImpersonateSA: s("sa@p.iam.gserviceaccount.com")}, warning: "Argument not used"},
		{name: "password with aws", m: providerModel{AWSRDSIAMAuth: b(true), Password: s("x")}, warning: "Argument not used"},
		{name: "password with gcppostgres: a built-in user", m: providerModel{Scheme: s("gcppostgres"), Password: s("x")}},
	} {
		var d diag.Diagnostics
		validateCloudAuth(tc.m, &d)
		var errs, warns []string
		for _, x := range d.Errors() {
			errs = append(errs, x.Summary())
		}
		for _, x := range d.Warnings() {
			warns = append(warns, x.Summary())
		}
		if got := strings.Join(errs, "; "); (tc.errors == "") != (got == "") || !strings.Contains(got, tc.errors) {
			t.Errorf("%s: errors %q, want %q", tc.name, got, tc.errors)
		}
		if got := strings.Join(warns, "; "); (tc.warning == "") != (got == "") || !strings.Contains(got, tc.warning) {
			t.Errorf("%s: warnings %q, want %q", tc.name, got, tc.warning)
		}
	}
}
