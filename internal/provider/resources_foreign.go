package provider

import "github.com/hashicorp/terraform-plugin-framework/resource"

// foreignResources: Foreign servers, user mappings, security labels, event triggers, row-level security.
func foreignResources() []func() resource.Resource {
	return []func() resource.Resource{
		NewServerResource,
		NewUserMappingResource,
		NewPolicyResource,
		NewTableRLSResource,
		NewEventTriggerResource,
		NewSecurityLabelResource,
	}
}
