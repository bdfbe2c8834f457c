package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// upgradeServerV0 reads cyrilgdn/postgresql 1.26's postgresql_server, whose
// layout is serverModel's less oid and database: options null after apply
// and {} after a refresh (both mean none, and are kept: the plan treats them
// alike), server_type/server_version "" when unset. cyrilgdn had no database
// argument: its servers live in the provider's database, which the next
// refresh records.
func upgradeServerV0(m serverModel) serverModel {
	m.ID = m.ServerName
	m.OID = types.Int64Null()       // filled by the next refresh
	m.Database = types.StringNull() // the provider's database, filled by the next refresh
	m.ServerType = stringOr(m.ServerType, "")
	m.ServerVersion = stringOr(m.ServerVersion, "")
	m.DropCascade = boolOr(m.DropCascade, false)
	m.OptionsWO, m.OptionsWOVersion = types.MapNull(types.StringType), types.StringNull() // write-only: never in a state
	m.OptionsWONames = types.SetNull(types.StringType)
	return m
}
