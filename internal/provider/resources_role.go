package provider

import "github.com/hashicorp/terraform-plugin-framework/resource"

// roleResources: Roles (postgresql_role).
func roleResources() []func() resource.Resource {
	return []func() resource.Resource{
		NewRoleResource,
	}
}
