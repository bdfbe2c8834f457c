package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// upgradeExtensionV0 reads cyrilgdn/postgresql 1.26's postgresql_extension,
// whose layout is extensionModel's less oid and database_oid (after an import
// create_cascade and drop_cascade are null: the defaults). The OIDs are
// filled by the next refresh.
func upgradeExtensionV0(m extensionModel) extensionModel {
	known := func(v types.String) types.String {
		if v.IsUnknown() {
			return types.StringNull()
		}
		return v
	}
	if m.ID.IsNull() || m.ID.ValueString() == "" {
		m.ID = types.StringValue(m.Database.ValueString() + "." + m.Name.ValueString())
	}
	m.OID = types.Int64Null()
	m.Database = known(m.Database)
	m.DatabaseOID = types.Int64Null() // filled by the next refresh
	m.Schema = known(m.Schema)
	m.Version = known(m.Version)
	m.CreateCascade = boolOr(m.CreateCascade, false)
	m.DropCascade = boolOr(m.DropCascade, false)
	return m
}
