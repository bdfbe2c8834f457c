package provider

import "github.com/hashicorp/terraform-plugin-framework/datasource"

// foreignDataSources: Data sources of the foreign-data area.
func foreignDataSources() []func() datasource.DataSource {
	return []func() datasource.DataSource{}
}
