package provider

// upgradePhysicalReplicationSlotV0 reads cyrilgdn's layout, which is the same
// as this one; the id is the name.
func upgradePhysicalReplicationSlotV0(old physicalReplicationSlotModel) physicalReplicationSlotModel {
	return physicalReplicationSlotModel{ID: old.Name, Name: old.Name}
}
