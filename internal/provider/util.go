package provider

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

func mustRegexp(s string) *regexp.Regexp { return regexp.MustCompile(s) }

// withClient holds the provider's client; resources and data sources embed
// it for their Configure.
type withClient struct {
	client *pg.Client
	opts   *options // the provider's seams (nil before Configure)
}

// pgClient is the resource's client (nil before Configure): clientUser.
func (w *withClient) pgClient() *pg.Client { return w.client }

// clientUser is a resource with a client (withClient).
type clientUser interface{ pgClient() *pg.Client }

func (w *withClient) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	w.client = clientFrom(req.ProviderData, &resp.Diagnostics)
	if d, ok := req.ProviderData.(*providerData); ok {
		w.opts = d.opts
	}
}

// providerOptions are the provider's seams (never nil).
func (w *withClient) providerOptions() *options {
	if w.opts == nil {
		return &options{}
	}
	return w.opts
}

// clientFrom extracts the *pg.Client of the providerData that Configure hands
// to resources and data sources (req.ProviderData); nil before the provider
// is configured.
func clientFrom(data any, diags *diag.Diagnostics) *pg.Client {
	if data == nil {
		return nil // ValidateResourceConfig and friends run before Configure
	}
	d, ok := data.(*providerData)
	if !ok {
		diags.AddError("Unexpected provider data", fmt.Sprintf("expected *providerData, got %T; this is a bug in the provider", data))
		return nil
	}
	return d.client
}
