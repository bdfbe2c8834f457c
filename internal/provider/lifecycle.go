package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
	"github.com/pgtf/terraform-provider-postgresql/internal/planmod"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

// Every resource embeds tfkit.Lifecycle[M] (the skeleton: Create, Read,
// Update, Delete, ModifyPlan, ImportState, IdentitySchema; see
// internal/tfkit/resource.go) and implements tfkit.Object[M] with its model
// type M: Describe, ReadObject, CreateObject, UpdateObject, DropObject, which
// translate between the model and the pg package's types. This file hands
// the skeleton what it needs from PostgreSQL (skeletonHooks).

// managedResource is what every resource implements: tfkit.Lifecycle gives
// Metadata, Schema, Create, Read, Update, Delete, ModifyPlan, ImportState
// and IdentitySchema; withClient gives Configure; the resource adds
// ImportByID, IdentityAttributes (from the lifecycle) and UpgradeState.
type managedResource interface {
	resource.ResourceWithConfigure
	resource.ResourceWithImportState
	resource.ResourceWithIdentity
	resource.ResourceWithModifyPlan
	resource.ResourceWithUpgradeState
	tfkit.Identified
	tfkit.IDImporter
}

// validatedResource is a managedResource that also validates its
// configuration as a whole.
type validatedResource interface {
	managedResource
	resource.ResourceWithValidateConfig
}

// newLifecycle is the skeleton of resource obj: its type name
// postgresql_<kind>, its schema, and the state attributes that name it (its
// identity, in the order the documentation lists them).
func newLifecycle[M any](obj tfkit.Object[M], kind string, schema func() schema.Schema, identity ...string) tfkit.Lifecycle[M] {
	return tfkit.NewLifecycle(obj, kind, schema, writeHooks(obj), identity...)
}

// skeletonHooks is what the skeleton needs from PostgreSQL: which writes had
// an unknown outcome (pgconn.TrackOutcome), a duplicate object's error, the
// "" as unset marker, the expected_version check, and the provider's seams.
var skeletonHooks = &tfkit.Hooks{
	ProviderTypeName: providerTypeName,
	TrackOutcome:     func(ctx context.Context) (context.Context, tfkit.Outcome) { return pgconn.TrackOutcome(ctx) },
	IsDuplicate:      pgconn.IsDuplicate,
	Unseen:           pgconn.IsLendableNoConnect,
	EmptyIsUnset:     planmod.IsEmptyIsUnset,
	CheckPlan:        checkExpectedVersion,
	Seams: func(obj any) tfkit.Seams {
		o := seamsOf(obj)
		s := tfkit.Seams{ReadBackFault: o.readBackFault}
		if c := o.outcomes; c != nil {
			s.Settled = func(adopted bool) {
				if adopted {
					c.Adopted.Add(1)
				} else {
					c.Repeated.Add(1)
				}
			}
		}
		return s
	},
}

// checkExpectedVersion refuses a plan that changes an object (create,
// update, destroy) when the server is older than the provider's
// expected_version, which only the apply found out before. It asks the
// server (once per provider) only when expected_version is set and the
// provider configuration is known.
func checkExpectedVersion(ctx context.Context, obj any, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	cu, ok := obj.(clientUser)
	if !ok {
		return
	}
	c := cu.pgClient()
	if c == nil || c.Ready() != nil || !c.ExpectsVersion() {
		return
	}
	if !req.State.Raw.IsNull() && !resp.Plan.Raw.IsNull() && resp.Plan.Raw.Equal(req.State.Raw) {
		return // no change
	}
	var ve *pgconn.VersionError
	if _, err := c.Capabilities(ctx); errors.As(err, &ve) {
		resp.Diagnostics.AddError("Server older than expected_version",
			fmt.Sprintf("The server runs PostgreSQL %s, but the provider's expected_version is %s: this plan would fail when applied. "+
				"Connect the provider to a server of that version or later, or change expected_version.", ve.Server, ve.Expected))
	}
}

// notFound is what a read returns when reading the object failed with err or
// found nothing (err nil): the object is gone when its database is gone too.
func notFound(summary string, err error) (bool, diag.Diagnostics) {
	if err == nil || pg.IsMissingDatabase(err) {
		return false, nil
	}
	return false, tfkit.Failed(summary, err)
}

// seamsOf returns the provider's seams of obj (provider_data.go); the zero
// options when obj has none.
func seamsOf(obj any) *options {
	if s, ok := obj.(interface{ providerOptions() *options }); ok {
		return s.providerOptions()
	}
	return &options{}
}
