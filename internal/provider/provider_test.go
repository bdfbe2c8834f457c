package provider

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// testAccProtoV6ProviderFactories serves the provider under test in-process.
var testAccProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"postgresql": testProtocolServer(New("test", testProviderOptions()...)()),
}

// testOutcomes counts, over the whole test binary, the writes with an unknown
// outcome that the skeleton settled (the fault tests compare it before and after).
var testOutcomes OutcomeCounts

// testProviderOptions are the seams of the provider under test, then extra.
// The acceptance tests serve hundreds of provider instances in one process;
// those with the same configuration share one client (pg.SharedClient) and
// never close its pools. Idle connections close after 10 s, so they do not
// pile up, yet live across the commands of one test step. The shared client
// serves every test running in parallel, so its default bound is raised: at
// 20 it closed idle connections to make room so often that backends were
// started three times as often (and PostgreSQL's CPU time, mostly backend
// start and exit, was 1.7 times as high).
func testProviderOptions(extra ...Option) []Option {
	return append([]Option{WithMaxConnIdleTime(10 * time.Second), WithDefaultMaxConnections(120), WithOutcomeCounts(&testOutcomes)}, extra...)
}

// testOptions are the options testProviderOptions make (for code that needs
// the configuration the provider under test resolves, e.g. its shared client).
func testOptions() *options {
	var o options
	for _, opt := range testProviderOptions() {
		opt(&o)
	}
	return &o
}

// testFactories serves the provider under test with extra seams.
func testFactories(extra ...Option) map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"postgresql": testProtocolServer(New("test", testProviderOptions(extra...)...)()),
	}
}

// testProtocolServer serves p as the provider binary does (ProtocolServer).
func testProtocolServer(p provider.Provider) func() (tfprotov6.ProviderServer, error) {
	return func() (tfprotov6.ProviderServer, error) {
		return releaseContexts(providerserver.NewProtocol6(p)()), nil
	}
}

func TestResolveConfigDefaultsAndEnv(t *testing.T) {
	env := map[string]string{"PGHOST": "db.example", "PGPORT": "6543", "PGUSER": "admin", "PGSUPERUSER": "false"}
	cfg, cerr := resolveConfig(providerModel{}, func(k string) string { return env[k] })
	if cerr != nil {
		t.Fatal(cerr.detail)
	}
	if cfg.Host != "db.example" || cfg.Port != 6543 || cfg.Username != "admin" || cfg.Superuser ||
		cfg.Database != "postgres" || cfg.SSLMode != "prefer" || cfg.MaxConnections != 20 || cfg.ConnectTimeout.Seconds() != 180 {
		t.Fatalf("unexpected config %+v", cfg)
	}
	if len(cfg.Unknown) != 0 || cfg.Unsupported != nil {
		t.Fatalf("unexpected unknown/unsupported: %+v", cfg)
	}
}

func TestResolveConfigExplicitWinsOverEnv(t *testing.T) {
	env := map[string]string{"PGHOST": "env-host", "PGSSLMODE": "require"}
	m := providerModel{Host: types.StringValue("cfg-host"), SSLModeDeprecated: types.StringValue("disable"), Port: types.StringValue("1")}
	cfg, cerr := resolveConfig(m, func(k string) string { return env[k] })
	if cerr != nil {
		t.Fatal(cerr.detail)
	}
	if cfg.Host != "cfg-host" || cfg.SSLMode != "disable" || cfg.Port != 1 {
		t.Fatalf("unexpected config %+v", cfg)
	}
}

// An unknown host must never fall back to PGHOST or localhost: the client
// refuses to connect and names the argument.
func TestResolveConfigUnknownHostDoesNotFallBack(t *testing.T) {
	env := map[string]string{"PGHOST": "env-host"}
	m := providerModel{Host: types.StringUnknown(), Port: types.StringUnknown()}
	cfg, cerr := resolveConfig(m, func(k string) string { return env[k] })
	if cerr != nil {
		t.Fatal(cerr.detail)
	}
	if cfg.Host != "" {
		t.Fatalf("unknown host resolved to %q", cfg.Host)
	}
	if len(cfg.Unknown) != 2 || cfg.Unknown[0] != "host" || cfg.Unknown[1] != "port" {
		t.Fatalf("unknown = %v", cfg.Unknown)
	}
}

func TestResolveConfigFaultSettings(t *testing.T) {
	cfg, cerr := resolveConfig(providerModel{}, func(string) string { return "" })
	if cerr != nil {
		t.Fatal(cerr.detail)
	}
	if cfg.MaxRetryDuration != 2*time.Minute || cfg.LockTimeout != time.Minute || cfg.StatementTimeout != 0 || cfg.ApplicationName != "" {
		t.Fatalf("defaults: %+v", cfg)
	}
	env := map[string]string{"PGTF_MAX_RETRY_DURATION": "30", "PGAPPNAME": "deploy"}
	m := providerModel{LockTimeout: types.Int64Value(5), StatementTimeout: types.Int64Value(600)}
	cfg, cerr = resolveConfig(m, func(k string) string { return env[k] })
	if cerr != nil {
		t.Fatal(cerr.detail)
	}
	if cfg.MaxRetryDuration != 30*time.Second || cfg.LockTimeout != 5*time.Second || cfg.StatementTimeout != 10*time.Minute || cfg.ApplicationName != "deploy" {
		t.Fatalf("explicit and env: %+v", cfg)
	}
	cfg, _ = resolveConfig(providerModel{MaxRetryDuration: types.Int64Value(0)}, func(string) string { return "" })
	if cfg.MaxRetryDuration >= 0 {
		t.Fatalf("max_retry_duration = 0 must disable retries (negative), got %s", cfg.MaxRetryDuration)
	}
	if _, cerr := resolveConfig(providerModel{}, func(k string) string {
		return map[string]string{"PGTF_MAX_RETRY_DURATION": "soon"}[k]
	}); cerr == nil {
		t.Error("an invalid PGTF_MAX_RETRY_DURATION was accepted")
	}
}

func TestResolveConfigInvalidEnv(t *testing.T) {
	for _, env := range []map[string]string{{"PGPORT": "x"}, {"PGPORT": "70000"}, {"PGSSLMODE": "bogus"}, {"PGSUPERUSER": "maybe"}} {
		if _, cerr := resolveConfig(providerModel{}, func(k string) string { return env[k] }); cerr == nil {
			t.Errorf("env %v accepted", env)
		}
	}
}

// TestRegistrySorted: the provider lists its resources and data sources in
// one place, sorted by type name, each type once.
func TestRegistrySorted(t *testing.T) {
	ctx := context.Background()
	p := &pgProvider{}
	sortedOnce := func(what string, names []string) {
		if !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
			t.Errorf("%s not sorted or duplicated: %v", what, names)
		}
	}
	var names []string
	for _, f := range p.Resources(ctx) {
		var resp resource.MetadataResponse
		f().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "postgresql"}, &resp)
		names = append(names, resp.TypeName)
	}
	sortedOnce("resources", names)
	names = nil
	for _, f := range p.DataSources(ctx) {
		var resp datasource.MetadataResponse
		f().Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "postgresql"}, &resp)
		names = append(names, resp.TypeName)
	}
	sortedOnce("data sources", names)
}
