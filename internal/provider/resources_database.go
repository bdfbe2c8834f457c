package provider

import "github.com/hashicorp/terraform-plugin-framework/resource"

// databaseResources: Databases, schemas, extensions.
func databaseResources() []func() resource.Resource {
	return []func() resource.Resource{
		NewDatabaseResource,
		NewSchemaResource,
		NewExtensionResource,
	}
}
