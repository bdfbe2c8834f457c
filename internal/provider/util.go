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
type withClient struct{ client *pg.Client }

// pgClient is the resource's client (nil before Configure): clientUser.
func (w *withClient) pgClient() *pg.Client { return w.client }

// clientUser is a resource with a client (withClient).
type clientUser interface{ pgClient() *pg.Client }

func (w *withClient) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	w.client = clientFrom(req.ProviderData, &resp.Diagnostics)
}

// clientFrom extracts the *pg.Client that Configure hands to resources and
// data sources (req.ProviderData); nil before the provider is configured.
func clientFrom(providerData any, diags *diag.Diagnostics) *pg.Client {
	if providerData == nil {
		return nil // ValidateResourceConfig and friends run before Configure
	}
	c, ok := providerData.(*pg.Client)
	if !ok {
		diags.AddError("Unexpected provider data", fmt.Sprintf("expected *pg.Client, got %T; this is a bug in the provider", providerData))
		return nil
	}
	return c
}
