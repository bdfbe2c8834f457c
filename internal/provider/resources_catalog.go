package provider

import "github.com/hashicorp/terraform-plugin-framework/resource"

// catalogResources: Functions, publications, subscriptions, replication slots.
func catalogResources() []func() resource.Resource {
	return []func() resource.Resource{
		NewFunctionResource,
		NewReplicationSlotResource,
		NewPhysicalReplicationSlotResource,
		NewPublicationResource,
		NewSubscriptionResource,
	}
}
