package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// databaseModelV0 is the state layout of cyrilgdn/postgresql 1.26's postgresql_database.
type databaseModelV0 struct {
	ID                   types.String `tfsdk:"id"`
	Name                 types.String `tfsdk:"name"`
	Owner                types.String `tfsdk:"owner"`
	Template             types.String `tfsdk:"template"`
	Encoding             types.String `tfsdk:"encoding"`
	LCCollate            types.String `tfsdk:"lc_collate"`
	LCCtype              types.String `tfsdk:"lc_ctype"`
	TablespaceName       types.String `tfsdk:"tablespace_name"`
	ConnectionLimit      types.Int64  `tfsdk:"connection_limit"`
	AllowConnections     types.Bool   `tfsdk:"allow_connections"`
	IsTemplate           types.Bool   `tfsdk:"is_template"`
	AlterObjectOwnership types.Bool   `tfsdk:"alter_object_ownership"`
}

// upgradeDatabaseV0 reads cyrilgdn's layout (created and imported states;
// after an import alter_object_ownership is null).
func upgradeDatabaseV0(old databaseModelV0) databaseModel {
	id := old.ID
	if id.IsNull() || id.ValueString() == "" {
		id = old.Name
	}
	known := func(v types.String) types.String {
		if v.IsUnknown() {
			return types.StringNull()
		}
		return v
	}
	return databaseModel{
		ID:                   id,
		OID:                  types.Int64Null(), // filled by the next refresh
		Name:                 old.Name,
		Owner:                known(old.Owner),
		Template:             known(old.Template), // cyrilgdn stores its default template0 when unset
		Encoding:             known(old.Encoding),
		LCCollate:            known(old.LCCollate),
		LCCtype:              known(old.LCCtype),
		TablespaceName:       known(old.TablespaceName),
		ConnectionLimit:      int64Or(old.ConnectionLimit, -1),
		AllowConnections:     boolOr(old.AllowConnections, true),
		IsTemplate:           boolOr(old.IsTemplate, false),
		AlterObjectOwnership: boolOr(old.AlterObjectOwnership, false),
		ForceDrop:            types.BoolValue(false),
	}
}
