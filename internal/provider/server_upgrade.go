package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// serverModelV0 is the state layout of cyrilgdn/postgresql 1.26's postgresql_server.
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

// upgradeServerV0 reads cyrilgdn's layout: options null after apply and
// {} after a refresh (both mean none, and are kept: the plan treats them alike),
// server_type/server_version "" when unset. cyrilgdn had no database argument:
// its servers live in the provider's database, which the next refresh records.
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
