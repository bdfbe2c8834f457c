package provider

import "github.com/hashicorp/terraform-plugin-framework/datasource"

// catalogDataSources: Data sources for schemas, tables, sequences, roles, databases.
func catalogDataSources() []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewSchemasDataSource,
		NewTablesDataSource,
		NewSequencesDataSource,
		NewRoleDataSource,
		NewDatabaseDataSource,
	}
}
