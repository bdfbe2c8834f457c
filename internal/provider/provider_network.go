package provider

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn/tunnel"
)

// Private networks: an SSH bastion (the ssh_tunnel block) and a SOCKS5 proxy
// (proxy_url, or ALL_PROXY).

func proxyURLAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional:  true,
		Sensitive: true, // it may carry the proxy's password
		MarkdownDescription: "SOCKS5 proxy every connection goes through: `socks5://[user[:password]@]host[:port]` (host names resolved on this machine) or " +
			"`socks5h://...` (host names resolved by the proxy); the port defaults to `1080`. " +
			"When unset, the `ALL_PROXY` (or `all_proxy`) environment variable is used if it holds a `socks5://` or `socks5h://` URL " +
			"(other schemes there are ignored), and then hosts listed in `NO_PROXY` (or `no_proxy`) are reached directly. " +
			"With `ssh_tunnel`, the SSH connection to the bastion goes through the proxy. Connections to a Unix socket never do.",
	}
}

func sshTunnelBlock() schema.ListNestedBlock {
	return schema.ListNestedBlock{
		MarkdownDescription: "SSH bastion (jump host) every connection goes through, for a server in a private network. " +
			"The provider opens one SSH connection (on the first database connection, never while it is configured), shares it among all its connections, " +
			"and opens it again when it is lost. The server's `host` and `port` are resolved on the bastion. " +
			"Exactly one of `private_key`, `private_key_file` and `agent` authenticates. The bastion's host key is always verified: against `host_key` when set, " +
			"else against `known_hosts_file`.",
		Validators: []validator.List{listvalidator.SizeAtMost(1)},
		NestedObject: schema.NestedBlockObject{
			Attributes: map[string]schema.Attribute{
				"host": schema.StringAttribute{Required: true, MarkdownDescription: "Host name or address of the bastion."},
				"port": schema.Int64Attribute{
					Optional:            true,
					MarkdownDescription: "SSH port of the bastion. Defaults to `22`.",
					Validators:          []validator.Int64{int64validator.Between(1, 65535)},
				},
				"user": schema.StringAttribute{Required: true, MarkdownDescription: "User to log in to the bastion as."},
				"private_key": schema.StringAttribute{
					Optional:            true,
					Sensitive:           true,
					MarkdownDescription: "Private key (PEM or OpenSSH format text, e.g. `file(\"~/.ssh/id_ed25519\")` or a secret manager's value).",
				},
				"private_key_file": schema.StringAttribute{
					Optional:            true,
					MarkdownDescription: "Path of the private key file (read when the provider first connects; `~/` is the home directory).",
				},
				"private_key_passphrase": schema.StringAttribute{
					Optional:            true,
					Sensitive:           true,
					MarkdownDescription: "Passphrase of an encrypted `private_key` or `private_key_file`.",
				},
				"agent": schema.BoolAttribute{
					Optional:            true,
					MarkdownDescription: "Authenticate with the keys of the SSH agent at `SSH_AUTH_SOCK`.",
				},
				"known_hosts_file": schema.StringAttribute{
					Optional:            true,
					MarkdownDescription: "Known hosts file (OpenSSH format, hashed names allowed) that must list the bastion's host key, under `host` or `[host]:port`. Defaults to `~/.ssh/known_hosts`. Not used when `host_key` is set.",
					Validators:          []validator.String{stringvalidator.ConflictsWith(path.MatchRelative().AtParent().AtName("host_key"))},
				},
				"host_key": schema.StringAttribute{
					Optional: true,
					MarkdownDescription: "The bastion's public host key, as a line of `authorized_keys`, `known_hosts` or the host key's `.pub` file " +
						"(e.g. `ssh-ed25519 AAAAC3Nza...`); when set, `known_hosts_file` is not read.",
				},
			},
		},
	}
}

type sshTunnelModel struct {
	Host                 types.String `tfsdk:"host"`
	Port                 types.Int64  `tfsdk:"port"`
	User                 types.String `tfsdk:"user"`
	PrivateKey           types.String `tfsdk:"private_key"`
	PrivateKeyFile       types.String `tfsdk:"private_key_file"`
	PrivateKeyPassphrase types.String `tfsdk:"private_key_passphrase"`
	Agent                types.Bool   `tfsdk:"agent"`
	KnownHostsFile       types.String `tfsdk:"known_hosts_file"`
	HostKey              types.String `tfsdk:"host_key"`
}

// validateNetwork checks proxy_url and ssh_tunnel at validate time, skipping
// unknown values.
func validateNetwork(m providerModel) diag.Diagnostics {
	var diags diag.Diagnostics
	if v := m.ProxyURL; !v.IsNull() && !v.IsUnknown() {
		if _, err := tunnel.ParseProxyURL(v.ValueString()); err != nil {
			diags.AddAttributeError(path.Root("proxy_url"), "Invalid proxy_url", err.Error()+".")
		}
	}
	if len(m.SSHTunnel) != 1 {
		return diags
	}
	t := m.SSHTunnel[0]
	at := path.Root("ssh_tunnel").AtListIndex(0)
	if t.PrivateKey.IsUnknown() || t.PrivateKeyFile.IsUnknown() || t.Agent.IsUnknown() {
		return diags
	}
	var sources []string
	if !t.PrivateKey.IsNull() {
		sources = append(sources, "private_key")
	}
	if !t.PrivateKeyFile.IsNull() {
		sources = append(sources, "private_key_file")
	}
	if t.Agent.ValueBool() {
		sources = append(sources, "agent")
	}
	switch {
	case len(sources) == 0:
		diags.AddAttributeError(at, "No SSH authentication",
			"ssh_tunnel needs exactly one of private_key, private_key_file and agent = true.")
	case len(sources) > 1:
		diags.AddAttributeError(at.AtName(sources[1]), "Conflicting SSH authentication",
			fmt.Sprintf("ssh_tunnel takes exactly one of private_key, private_key_file and agent = true; %s are set.", strings.Join(sources, " and ")))
	case sources[0] == "agent" && !t.PrivateKeyPassphrase.IsNull():
		diags.AddAttributeError(at.AtName("private_key_passphrase"), "Passphrase without a key",
			"private_key_passphrase decrypts private_key or private_key_file; the agent holds its keys decrypted.")
	}
	if v := t.HostKey; !v.IsNull() && !v.IsUnknown() {
		if _, err := tunnel.ParseHostKey(v.ValueString()); err != nil {
			diags.AddAttributeError(at.AtName("host_key"), "Invalid host_key", "host_key is "+err.Error()+".")
		}
	}
	return diags
}

// resolveNetwork fills cfg.SSHTunnel and cfg.Proxy. Unknown values are
// recorded in cfg.Unknown.
func resolveNetwork(m providerModel, getenv func(string) string, cfg *pgconn.Config) *configError {
	switch {
	case m.ProxyURL.IsUnknown():
		cfg.Unknown = append(cfg.Unknown, "proxy_url")
	case !m.ProxyURL.IsNull():
		if _, err := tunnel.ParseProxyURL(m.ProxyURL.ValueString()); err != nil {
			return &configError{path.Root("proxy_url"), "Invalid proxy_url", err.Error() + "."}
		}
		cfg.Proxy = &pgconn.Proxy{URL: m.ProxyURL.ValueString()}
	default:
		env := firstEnv(getenv, "ALL_PROXY", "all_proxy")
		// ALL_PROXY often holds an HTTP proxy for other tools: only SOCKS5 applies here
		if _, err := tunnel.ParseProxyURL(env); env != "" && err == nil {
			cfg.Proxy = &pgconn.Proxy{URL: env, NoProxy: firstEnv(getenv, "NO_PROXY", "no_proxy")}
		}
	}
	if len(m.SSHTunnel) != 1 {
		return nil
	}
	t := m.SSHTunnel[0]
	for _, a := range []struct {
		name string
		v    interface{ IsUnknown() bool }
	}{
		{"host", t.Host}, {"port", t.Port}, {"user", t.User}, {"private_key", t.PrivateKey}, {"private_key_file", t.PrivateKeyFile},
		{"private_key_passphrase", t.PrivateKeyPassphrase}, {"agent", t.Agent}, {"known_hosts_file", t.KnownHostsFile}, {"host_key", t.HostKey},
	} {
		if a.v.IsUnknown() {
			cfg.Unknown = append(cfg.Unknown, "ssh_tunnel."+a.name)
		}
	}
	port := int64(22)
	if !t.Port.IsNull() && !t.Port.IsUnknown() {
		port = t.Port.ValueInt64()
	}
	cfg.SSHTunnel = &pgconn.SSHTunnel{
		Host: t.Host.ValueString(), Port: int(port), User: t.User.ValueString(),
		PrivateKey: t.PrivateKey.ValueString(), PrivateKeyFile: t.PrivateKeyFile.ValueString(),
		PrivateKeyPassphrase: t.PrivateKeyPassphrase.ValueString(), Agent: t.Agent.ValueBool(),
		KnownHostsFile: t.KnownHostsFile.ValueString(), HostKey: t.HostKey.ValueString(),
	}
	return nil
}

func firstEnv(getenv func(string) string, names ...string) string {
	for _, n := range names {
		if v := getenv(n); v != "" {
			return v
		}
	}
	return ""
}

// networkLogFields describes the network path for the configuration log line, without secrets.
func networkLogFields(cfg pgconn.Config) map[string]any {
	out := map[string]any{}
	if cfg.Proxy != nil {
		out["proxy"] = tunnel.RedactedProxyURL(cfg.Proxy.URL)
	}
	if t := cfg.SSHTunnel; t != nil {
		out["ssh_tunnel"] = fmt.Sprintf("%s@%s:%d", t.User, t.Host, t.Port)
	}
	return out
}
