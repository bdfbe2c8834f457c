package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// upgradeUserMappingV0 reads cyrilgdn/postgresql 1.26's
// postgresql_user_mapping, whose layout is userMappingModel's less oid and
// database (id `<user_name>.<server_name>`, options null after apply and {}
// after a refresh, both kept: the plan treats them alike). The mapping lives
// in the provider's database, which the next refresh records, as it does the
// OID.
func upgradeUserMappingV0(m userMappingModel) userMappingModel {
	m.ID = types.StringValue(m.UserName.ValueString() + "." + m.ServerName.ValueString())
	m.OID = types.Int64Null()
	m.Database = types.StringNull()
	m.OptionsWO, m.OptionsWOVersion = types.MapNull(types.StringType), types.StringNull() // write-only: never in a state
	m.OptionsWONames = types.SetNull(types.StringType)
	return m
}
