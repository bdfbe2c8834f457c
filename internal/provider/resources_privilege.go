package provider

import "github.com/hashicorp/terraform-plugin-framework/resource"

// privilegeResources: Privileges: grants, default privileges, role memberships.
func privilegeResources() []func() resource.Resource {
	return []func() resource.Resource{
		NewGrantResource,
		NewDefaultPrivilegesResource,
		NewGrantRoleResource,
	}
}
