package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// upgradePublicationV0 reads cyrilgdn/postgresql 1.26's
// postgresql_publication, whose layout is publicationModel's less oid,
// schemas and publish_generated_columns_param. It repairs the id that
// cyrilgdn's import leaves as "<database>." and fills what import left null.
func upgradePublicationV0(m publicationModel) publicationModel {
	m.OID = types.Int64Null()                                        // filled by the next refresh
	m.Schemas = types.SetValueMust(types.StringType, []attr.Value{}) // cyrilgdn had no schemas
	m.AllTables = boolOr(m.AllTables, false)
	m.PublishViaPartitionRootParam = boolOr(m.PublishViaPartitionRootParam, false)
	// cyrilgdn had no publish_generated_columns; the next refresh reads it (Computed)
	m.PublishGeneratedColumnsParam = types.StringNull()
	m.DropCascade = boolOr(m.DropCascade, false)
	if !isKnown(m.Database) {
		m.Database = types.StringNull()
	}
	if !isKnown(m.Owner) {
		m.Owner = types.StringNull()
	}
	if m.Tables.IsNull() || m.Tables.IsUnknown() {
		m.Tables = types.SetValueMust(types.StringType, []attr.Value{})
	}
	if m.PublishParam.IsNull() || m.PublishParam.IsUnknown() {
		m.PublishParam = stringList(allPublishParams...)
	}
	m.ID = types.StringNull()
	if isKnown(m.Database) {
		m.ID = types.StringValue(m.Database.ValueString() + "." + m.Name.ValueString())
	}
	return m
}

func stringList(v ...string) types.List {
	elems := make([]attr.Value, len(v))
	for i, s := range v {
		elems[i] = types.StringValue(s)
	}
	return types.ListValueMust(types.StringType, elems)
}
