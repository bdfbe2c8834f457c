package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// serverSchemaV0 is the frozen schema of cyrilgdn/postgresql 1.26's postgresql_server (types only).
func serverSchemaV0() *schema.Schema {
	return &schema.Schema{
		Attributes: map[string]schema.Attribute{
			"id":             schema.StringAttribute{Optional: true, Computed: true},
			"server_name":    schema.StringAttribute{Required: true},
			"fdw_name":       schema.StringAttribute{Required: true},
			"server_type":    schema.StringAttribute{Optional: true},
			"server_version": schema.StringAttribute{Optional: true},
			"server_owner":   schema.StringAttribute{Optional: true, Computed: true},
			"options":        schema.MapAttribute{ElementType: types.StringType, Optional: true},
			"drop_cascade":   schema.BoolAttribute{Optional: true},
		},
	}
}

type serverModelV0 struct {
	ID            types.String `tfsdk:"id"`
	ServerName    types.String `tfsdk:"server_name"`
	FDWName       types.String `tfsdk:"fdw_name"`
	ServerType    types.String `tfsdk:"server_type"`
	ServerVersion types.String `tfsdk:"server_version"`
	ServerOwner   types.String `tfsdk:"server_owner"`
	Options       types.Map    `tfsdk:"options"`
	DropCascade   types.Bool   `tfsdk:"drop_cascade"`
}

// upgradeServerStateV0 reads cyrilgdn's layout: options null after apply and
// {} after a refresh (both mean none, and are kept: the plan treats them alike),
// server_type/server_version "" when unset. cyrilgdn had no database argument:
// its servers live in the provider's database, which the next refresh records.
func upgradeServerStateV0(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	var old serverModelV0
	resp.Diagnostics.Append(req.State.Get(ctx, &old)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, upgradeServerV0(old))...)
}

func upgradeServerV0(old serverModelV0) serverModel {
	return serverModel{
		ID:            old.ServerName,
		OID:           types.Int64Null(),  // filled by the next refresh
		Database:      types.StringNull(), // the provider's database, filled by the next refresh
		ServerName:    old.ServerName,
		FDWName:       old.FDWName,
		ServerType:    stringOr(old.ServerType, ""),
		ServerVersion: stringOr(old.ServerVersion, ""),
		ServerOwner:   old.ServerOwner,
		Options:       old.Options,
		DropCascade:   boolOr(old.DropCascade, false),
	}
}
