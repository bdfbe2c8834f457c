package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// extensionModelV0 is the state layout of cyrilgdn/postgresql 1.26's postgresql_extension.
type extensionModelV0 struct {
	ID            types.String `tfsdk:"id"`
	Name          types.String `tfsdk:"name"`
	Database      types.String `tfsdk:"database"`
	Schema        types.String `tfsdk:"schema"`
	Version       types.String `tfsdk:"version"`
	CreateCascade types.Bool   `tfsdk:"create_cascade"`
	DropCascade   types.Bool   `tfsdk:"drop_cascade"`
}

// upgradeExtensionV0 reads cyrilgdn's layout (after an import
// create_cascade and drop_cascade are null: the defaults). The OID is filled
// by the next refresh.
func upgradeExtensionV0(old extensionModelV0) extensionModel {
	known := func(v types.String) types.String {
		if v.IsUnknown() {
			return types.StringNull()
		}
		return v
	}
	id := old.ID
	if id.IsNull() || id.ValueString() == "" {
		id = types.StringValue(old.Database.ValueString() + "." + old.Name.ValueString())
	}
	return extensionModel{
		ID:            id,
		OID:           types.Int64Null(),
		Name:          old.Name,
		Database:      known(old.Database),
		DatabaseOID:   types.Int64Null(), // filled by the next refresh
		Schema:        known(old.Schema),
		Version:       known(old.Version),
		CreateCascade: boolOr(old.CreateCascade, false),
		DropCascade:   boolOr(old.DropCascade, false),
	}
}
