package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// upgradeDatabaseV0 reads cyrilgdn/postgresql 1.26's postgresql_database,
// whose layout is databaseModel's less oid and force_drop (created and
// imported states; after an import alter_object_ownership is null).
func upgradeDatabaseV0(m databaseModel) databaseModel {
	if m.ID.IsNull() || m.ID.ValueString() == "" {
		m.ID = m.Name
	}
	known := func(v types.String) types.String {
		if v.IsUnknown() {
			return types.StringNull()
		}
		return v
	}
	m.OID = types.Int64Null() // filled by the next refresh
	m.Owner = known(m.Owner)
	m.Template.StringValue = known(m.Template.StringValue) // cyrilgdn stores its default template0 when unset
	m.Encoding.StringValue = known(m.Encoding.StringValue)
	m.LCCollate.StringValue = known(m.LCCollate.StringValue)
	m.LCCtype.StringValue = known(m.LCCtype.StringValue)
	m.TablespaceName = known(m.TablespaceName)
	m.ConnectionLimit = int64Or(m.ConnectionLimit, -1)
	m.AllowConnections = boolOr(m.AllowConnections, true)
	m.IsTemplate = boolOr(m.IsTemplate, false)
	m.AlterObjectOwnership = boolOr(m.AlterObjectOwnership, false)
	m.ForceDrop = types.BoolValue(false)
	return m
}
