package provider

import (
	"fmt"
	"net"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

// Cloud login: AWS RDS IAM, Cloud SQL IAM and Azure Entra ID tokens as
// passwords (cyrilgdn's arguments; the tokens themselves: pg/cloudauth.go).

// cloudAuthAttributes are the provider arguments of the cloud login methods.
func cloudAuthAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"scheme": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "Connection scheme. `postgres` (default): a direct connection. " +
				"`awspostgres`: the same, for AWS RDS; TLS is required unless `sslmode` says otherwise (set `sslmode = \"verify-full\"` and `sslrootcert` to the RDS CA bundle to verify the server). " +
				"`gcppostgres`: Cloud SQL IAM database authentication: unless `password` is set, the password is an OAuth2 access token of the Application Default Credentials " +
				"(or of `gcp_iam_impersonate_service_account`), and `host` is the instance's address (or a Cloud SQL Auth Proxy's), not its connection name. See the provider page.",
			Validators: []validator.String{stringvalidator.OneOf("postgres", "awspostgres", "gcppostgres")},
		},
		"aws_rds_iam_auth": schema.BoolAttribute{
			Optional: true,
			MarkdownDescription: "Log in with AWS RDS IAM authentication: the password of each new connection is an RDS auth token for `username` at `host`:`port`, " +
				"signed with the AWS SDK's default credentials (environment, shared files, SSO, container or instance roles). `password` is not used. Defaults to `false`.",
		},
		"aws_rds_iam_profile": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "AWS shared configuration profile for RDS IAM authentication. Defaults to the SDK's (`AWS_PROFILE`, then `default`).",
		},
		"aws_rds_iam_region": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "AWS region of the RDS instance for RDS IAM authentication. Defaults to the SDK's (`AWS_REGION`, the profile's region), then the region in an RDS `host` name.",
		},
		"aws_rds_iam_provider_role_arn": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "AWS IAM role to assume (STS `AssumeRole`, session name `TerraformPostgresqlProvider`) before signing RDS IAM tokens.",
		},
		"azure_identity_auth": schema.BoolAttribute{
			Optional: true,
			MarkdownDescription: "Log in with Microsoft Entra ID: the password of each new connection is an access token of the Azure SDK's default credential chain " +
				"(environment, workload identity, managed identity, Azure CLI, Azure Developer CLI) for Azure Database for PostgreSQL. Needs `azure_tenant_id`. `password` is not used. Defaults to `false`.",
		},
		"azure_tenant_id": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "Microsoft Entra tenant of `azure_identity_auth`. Required when `azure_identity_auth` is `true`.",
		},
		"gcp_iam_impersonate_service_account": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "With `scheme = \"gcppostgres\"`: service account (e-mail) whose access token is the password, made with the IAM Service Account Credentials API " +
				"by the Application Default Credentials (which need `roles/iam.serviceAccountTokenCreator` on it). `username` is then that account's database user (the e-mail without `.gserviceaccount.com`).",
		},
	}
}

// validateCloudAuth checks the cloud login arguments whose values are known.
func validateCloudAuth(m providerModel, diags *diag.Diagnostics) {
	aws, azure := m.AWSRDSIAMAuth.ValueBool(), m.AzureIdentityAuth.ValueBool()
	gcp := m.Scheme.ValueString() == "gcppostgres"
	if aws && azure {
		diags.AddAttributeError(path.Root("azure_identity_auth"), "Conflicting authentication methods",
			"aws_rds_iam_auth and azure_identity_auth cannot both be true.")
	}
	if gcp && (aws || azure) {
		diags.AddAttributeError(path.Root("scheme"), "Conflicting authentication methods",
			`scheme = "gcppostgres" (Cloud SQL IAM) cannot be combined with aws_rds_iam_auth or azure_identity_auth.`)
	}
	if azure && m.AzureTenantID.IsNull() {
		diags.AddAttributeError(path.Root("azure_tenant_id"), "Missing azure_tenant_id", "azure_identity_auth = true needs azure_tenant_id.")
	}
	if gcp && !m.Host.IsNull() && !m.Host.IsUnknown() {
		if msg := gcpHostProblem(m.Host.ValueString()); msg != "" {
			diags.AddAttributeError(path.Root("host"), "Cloud SQL instance connection names are not supported", msg)
		}
	}
	if !m.GCPIAMImpersonateSA.IsNull() && !m.Scheme.IsUnknown() && !gcp {
		diags.AddAttributeWarning(path.Root("gcp_iam_impersonate_service_account"), "Argument not used",
			`gcp_iam_impersonate_service_account is only used with scheme = "gcppostgres".`)
	}
	if (aws || azure || gcp && !m.GCPIAMImpersonateSA.IsNull()) && !m.Password.IsNull() {
		diags.AddAttributeWarning(path.Root("password"), "Argument not used",
			"password is not used: the password of each connection is a cloud login token.")
	}
}

// gcpHostProblem explains why host cannot be reached with scheme gcppostgres,
// or returns "". cyrilgdn's provider dialled the Cloud SQL connector with an
// instance connection name (project:region:instance or project/region/instance);
// this provider connects to an address.
func gcpHostProblem(host string) string {
	if host == "" || strings.HasPrefix(host, "/") || net.ParseIP(host) != nil || !strings.ContainsAny(host, ":/") {
		return ""
	}
	return fmt.Sprintf("host %q looks like a Cloud SQL instance connection name. This provider does not embed the Cloud SQL connector: "+
		"set host to the instance's IP address (private or public, with an authorized network), or run the Cloud SQL Auth Proxy "+
		"(for example with --auto-iam-authn) and set host to its address or Unix socket directory.", host)
}

// resolveCloudAuth resolves the cloud login arguments into cfg.CloudAuth, and
// the default sslmode of token logins (require). Unknown values are recorded
// in cfg.Unknown, never replaced by defaults.
func resolveCloudAuth(m providerModel, cfg *pg.Config, getenv func(string) string) *configError {
	str := func(name string, v types.String) string {
		if v.IsUnknown() {
			cfg.Unknown = append(cfg.Unknown, name)
		}
		return v.ValueString()
	}
	boolean := func(name string, v types.Bool) bool {
		if v.IsUnknown() {
			cfg.Unknown = append(cfg.Unknown, name)
		}
		return v.ValueBool()
	}
	scheme := str("scheme", m.Scheme)
	aws := boolean("aws_rds_iam_auth", m.AWSRDSIAMAuth)
	azure := boolean("azure_identity_auth", m.AzureIdentityAuth)
	switch {
	case aws:
		cfg.CloudAuth = &pg.CloudAuth{
			Method:     pg.AuthAWSRDSIAM,
			AWSProfile: str("aws_rds_iam_profile", m.AWSRDSIAMProfile),
			AWSRegion:  str("aws_rds_iam_region", m.AWSRDSIAMRegion),
			AWSRoleARN: str("aws_rds_iam_provider_role_arn", m.AWSRDSIAMProviderRoleARN),
		}
	case azure:
		tenant := str("azure_tenant_id", m.AzureTenantID)
		if tenant == "" && !m.AzureTenantID.IsUnknown() {
			return &configError{path.Root("azure_tenant_id"), "Missing azure_tenant_id", "azure_identity_auth = true needs azure_tenant_id."}
		}
		cfg.CloudAuth = &pg.CloudAuth{Method: pg.AuthAzure, AzureTenantID: tenant}
	case scheme == "gcppostgres":
		if msg := gcpHostProblem(cfg.Host); msg != "" {
			return &configError{path.Root("host"), "Cloud SQL instance connection names are not supported", msg}
		}
		sa := str("gcp_iam_impersonate_service_account", m.GCPIAMImpersonateSA)
		// as with cyrilgdn's provider, a configured password (a built-in
		// user's) is used as such unless a service account is impersonated
		if sa != "" || m.GCPIAMImpersonateSA.IsUnknown() || m.Password.IsNull() || m.Password.ValueString() == "" {
			cfg.CloudAuth = &pg.CloudAuth{Method: pg.AuthGCPIAM, GCPImpersonateServiceAccount: sa}
		}
	}
	// A token is a bearer secret: token logins, and the cloud schemes
	// (cyrilgdn's gocloud connections always used TLS), require TLS unless
	// sslmode is set.
	if (cfg.CloudAuth != nil || scheme == "awspostgres" || scheme == "gcppostgres") && m.SSLMode.IsNull() && m.SSLModeDeprecated.IsNull() && getenv("PGSSLMODE") == "" {
		cfg.SSLMode = "require"
	}
	return nil
}

// cloudLoginName names the cloud login method of cfg for the logs ("" = none).
func cloudLoginName(cfg pg.Config) string {
	if cfg.CloudAuth == nil {
		return ""
	}
	return cfg.CloudAuth.Method
}
