package provider

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn/cloudlogin"
)

// Cloud login: AWS RDS IAM, Cloud SQL IAM and Azure Entra ID tokens as
// passwords (cyrilgdn's arguments; the tokens themselves: pgconn/cloudlogin/cloudauth.go).

// cloudAuthAttributes are the provider arguments of the cloud login methods.
func cloudAuthAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"scheme": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "Connection scheme. `postgres` (default): a direct connection. " +
				"`awspostgres`: the same, for AWS RDS; TLS is required unless `sslmode` says otherwise (set `sslmode = \"verify-full\"` and `sslrootcert` to the RDS CA bundle to verify the server). " +
				"`gcppostgres`: Cloud SQL. With an instance connection name as `host` (`project:region:instance`), every connection goes through the Cloud SQL connector " +
				"(the Cloud SQL Admin API's ephemeral certificates, TLS to the instance, `gcp_ip_type`); unless `password` is set, it logs in with automatic IAM database authentication. " +
				"With an address as `host` (the instance's IP, or a Cloud SQL Auth Proxy's address or socket directory), the password is, unless `password` is set, an OAuth2 access token " +
				"of the Application Default Credentials (or of `gcp_iam_impersonate_service_account`). See the provider page.",
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
		"aws_rds_iam_endpoint": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "The RDS endpoint (`address` or `address:port`, e.g. `aws_db_instance.x.endpoint`) the RDS IAM token is signed for, when the provider connects to another " +
				"address: a tunnel, a VPN name or a proxy in front of RDS. The connection still goes to `host`:`port`; without a port here, the first `port` is used. " +
				"It also gives the region when `aws_rds_iam_region` and the SDK name none. Defaults to the first `host` and its port.",
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
		"azure_environment": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "Azure cloud of `azure_identity_auth`: `public`, `china` (Azure operated by 21Vianet) or `usgovernment`. It selects the Microsoft Entra authority " +
				"(`login.microsoftonline.com`, `login.chinacloudapi.cn`, `login.microsoftonline.us`; `AZURE_AUTHORITY_HOST` overrides it) and the token scope of Azure Database for PostgreSQL in that cloud. " +
				"Defaults to `ARM_ENVIRONMENT` (as the azurerm provider), then `public`.",
			Validators: []validator.String{stringvalidator.OneOf(pgconn.AzureEnvironments...)},
		},
		"gcp_ip_type": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "With a Cloud SQL instance connection name as `host`: the instance address the connector dials: `public`, `private` (VPC), `psc` (Private Service Connect), " +
				"or `auto` (the public IP if the instance has one, else the private IP, as the connector of the community provider did). Defaults to `auto`.",
			Validators: []validator.String{stringvalidator.OneOf(pgconn.CloudSQLIPTypes...)},
		},
		"gcp_iam_impersonate_service_account": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "With `scheme = \"gcppostgres\"`: service account (e-mail) whose access token logs in (the password, or with an instance connection name the connector's certificate, " +
				"whose Admin API calls it then also makes), made with the IAM Service Account Credentials API " +
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
	connector := false
	if !m.Host.IsNull() && !m.Host.IsUnknown() {
		host := m.Host.ValueString()
		connector = gcp && cloudlogin.ParseCloudSQLInstance(host) != ""
		switch {
		case gcp && !connector && cloudlogin.LooksLikeCloudSQLInstance(host):
			diags.AddAttributeError(path.Root("host"), "Invalid Cloud SQL instance connection name",
				fmt.Sprintf("host %q is not a Cloud SQL instance connection name (project:region:instance, or project/region/instance) nor an address.", host))
		case !gcp && !m.Scheme.IsUnknown() && cloudlogin.ParseCloudSQLInstance(host) != "" && !strings.Contains(host, "/"):
			diags.AddAttributeWarning(path.Root("host"), "Cloud SQL instance connection name without the gcppostgres scheme",
				fmt.Sprintf(`host %q looks like a Cloud SQL instance connection name: set scheme = "gcppostgres" to connect through the Cloud SQL connector.`, host))
		}
	}
	if connector {
		if len(m.ClientCert) > 0 {
			diags.AddAttributeError(path.Root("clientcert"), "clientcert with the Cloud SQL connector",
				"the Cloud SQL connector authenticates with its own ephemeral certificate: remove clientcert, or set host to the instance's address.")
		}
		if !m.SSLRootCert.IsNull() {
			diags.AddAttributeError(path.Root("sslrootcert"), "sslrootcert with the Cloud SQL connector",
				"the Cloud SQL connector verifies the instance with the CA the Cloud SQL Admin API gives: remove sslrootcert, or set host to the instance's address.")
		}
	}
	if !m.GCPIPType.IsNull() && !m.GCPIPType.IsUnknown() && !m.Host.IsUnknown() && !m.Scheme.IsUnknown() && !connector {
		diags.AddAttributeWarning(path.Root("gcp_ip_type"), "Argument not used",
			`gcp_ip_type is only used with scheme = "gcppostgres" and a Cloud SQL instance connection name as host.`)
	}
	if !m.AzureEnvironment.IsNull() && !m.AzureIdentityAuth.IsUnknown() && !azure {
		diags.AddAttributeWarning(path.Root("azure_environment"), "Argument not used", "azure_environment is only used with azure_identity_auth = true.")
	}
	if !m.AWSRDSIAMEndpoint.IsNull() && !m.AWSRDSIAMEndpoint.IsUnknown() {
		if _, _, err := cloudlogin.SplitEndpoint(m.AWSRDSIAMEndpoint.ValueString()); err != nil {
			diags.AddAttributeError(path.Root("aws_rds_iam_endpoint"), "Invalid aws_rds_iam_endpoint",
				fmt.Sprintf("aws_rds_iam_endpoint %q is not an address[:port]: %s.", m.AWSRDSIAMEndpoint.ValueString(), err))
		}
		if !m.AWSRDSIAMAuth.IsUnknown() && !aws {
			diags.AddAttributeWarning(path.Root("aws_rds_iam_endpoint"), "Argument not used", "aws_rds_iam_endpoint is only used with aws_rds_iam_auth = true.")
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

// resolveCloudAuth resolves the cloud login arguments into cfg.CloudAuth, and
// the default sslmode of token logins (require). Unknown values are recorded
// in cfg.Unknown, never replaced by defaults.
func resolveCloudAuth(m providerModel, cfg *pgconn.Config, getenv func(string) string) *configError {
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
		cfg.CloudAuth = &pgconn.CloudAuth{
			Method:      pgconn.AuthAWSRDSIAM,
			AWSProfile:  str("aws_rds_iam_profile", m.AWSRDSIAMProfile),
			AWSRegion:   str("aws_rds_iam_region", m.AWSRDSIAMRegion),
			AWSRoleARN:  str("aws_rds_iam_provider_role_arn", m.AWSRDSIAMProviderRoleARN),
			AWSEndpoint: str("aws_rds_iam_endpoint", m.AWSRDSIAMEndpoint),
		}
		if _, _, err := cloudlogin.SplitEndpoint(cfg.CloudAuth.AWSEndpoint); cfg.CloudAuth.AWSEndpoint != "" && err != nil {
			return &configError{path.Root("aws_rds_iam_endpoint"), "Invalid aws_rds_iam_endpoint", fmt.Sprintf("aws_rds_iam_endpoint %q is not an address[:port]: %s.", cfg.CloudAuth.AWSEndpoint, err)}
		}
	case azure:
		tenant := str("azure_tenant_id", m.AzureTenantID)
		if tenant == "" && !m.AzureTenantID.IsUnknown() {
			return &configError{path.Root("azure_tenant_id"), "Missing azure_tenant_id", "azure_identity_auth = true needs azure_tenant_id."}
		}
		env := str("azure_environment", m.AzureEnvironment)
		if m.AzureEnvironment.IsNull() {
			// the azurerm provider's variable, when it names a cloud this login knows
			if e := strings.ToLower(getenv("ARM_ENVIRONMENT")); slices.Contains(pgconn.AzureEnvironments, e) {
				env = e
			}
		}
		cfg.CloudAuth = &pgconn.CloudAuth{Method: pgconn.AuthAzure, AzureTenantID: tenant, AzureEnvironment: env}
	case scheme == "gcppostgres":
		sa := str("gcp_iam_impersonate_service_account", m.GCPIAMImpersonateSA)
		// as with cyrilgdn's provider, a configured password (a built-in
		// user's) is used as such unless a service account is impersonated
		iam := sa != "" || m.GCPIAMImpersonateSA.IsUnknown() || m.Password.IsNull() || m.Password.ValueString() == ""
		if inst := cloudlogin.ParseCloudSQLInstance(cfg.Host); inst != "" && !m.Host.IsUnknown() {
			if len(m.ClientCert) > 0 || cfg.SSLRootCert != "" {
				return &configError{path.Root("host"), "Certificates with the Cloud SQL connector", "the Cloud SQL connector makes its own certificates: remove clientcert and sslrootcert (or PGSSLROOTCERT), or set host to the instance's address."}
			}
			cfg.CloudSQL = &pgconn.CloudSQL{
				Instance: inst, IPType: str("gcp_ip_type", m.GCPIPType), IAMAuthN: iam, ImpersonateServiceAccount: sa,
				AdminAPIEndpoint: getenv("PGTF_GCP_SQLADMIN_API_ENDPOINT"),
			}
			if iam {
				cfg.Password = "" // the login's token is in the connector's certificate
			}
			break
		}
		if cloudlogin.LooksLikeCloudSQLInstance(cfg.Host) && !m.Host.IsUnknown() {
			return &configError{path.Root("host"), "Invalid Cloud SQL instance connection name",
				fmt.Sprintf("host %q is not a Cloud SQL instance connection name (project:region:instance, or project/region/instance) nor an address.", cfg.Host)}
		}
		if iam {
			cfg.CloudAuth = &pgconn.CloudAuth{Method: pgconn.AuthGCPIAM, GCPImpersonateServiceAccount: sa}
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
func cloudLoginName(cfg pgconn.Config) string {
	if cfg.CloudSQL != nil {
		if cfg.CloudSQL.IAMAuthN {
			return "cloudsql_connector_iam"
		}
		return "cloudsql_connector"
	}
	if cfg.CloudAuth == nil {
		return ""
	}
	return cfg.CloudAuth.Method
}
