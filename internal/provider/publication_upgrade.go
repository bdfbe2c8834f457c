package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// publicationModelV0 is the state layout of cyrilgdn/postgresql 1.26's postgresql_publication.
type publicationModelV0 struct {
	ID                           types.String `tfsdk:"id"`
	Name                         types.String `tfsdk:"name"`
	Database                     types.String `tfsdk:"database"`
	Owner                        types.String `tfsdk:"owner"`
	Tables                       types.Set    `tfsdk:"tables"`
	AllTables                    types.Bool   `tfsdk:"all_tables"`
	PublishParam                 types.List   `tfsdk:"publish_param"`
	PublishViaPartitionRootParam types.Bool   `tfsdk:"publish_via_partition_root_param"`
	DropCascade                  types.Bool   `tfsdk:"drop_cascade"`
}

// upgradePublicationV0 reads cyrilgdn's layout. It repairs the id that
// cyrilgdn's import leaves as "<database>." and fills what import left null.
func upgradePublicationV0(old publicationModelV0) publicationModel {
	m := publicationModel{
		OID:                          types.Int64Null(), // filled by the next refresh
		Name:                         old.Name,
		Database:                     old.Database,
		Owner:                        old.Owner,
		Tables:                       old.Tables,
		Schemas:                      types.SetValueMust(types.StringType, []attr.Value{}), // cyrilgdn had no schemas
		AllTables:                    boolOr(old.AllTables, false),
		PublishParam:                 old.PublishParam,
		PublishViaPartitionRootParam: boolOr(old.PublishViaPartitionRootParam, false),
		// cyrilgdn had no publish_generated_columns; the next refresh reads it (Computed)
		PublishGeneratedColumnsParam: types.StringNull(),
		DropCascade:                  boolOr(old.DropCascade, false),
	}
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
