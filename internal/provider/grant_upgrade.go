package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

// upgradeGrantV0 reads cyrilgdn/postgresql 1.26's postgresql_grant, whose
// layout is grantModel's: `privileges = []` is stored there as null (-> empty
// set), null objects/columns become [] (unset and [] mean the same,
// "all"/"none", and the state always records [] so that either spelling in
// the configuration plans no change). The id is cyrilgdn's, computed again
// (the same text).
func upgradeGrantV0(ctx context.Context, m grantModel) (grantModel, diag.Diagnostics) {
	m.Objects = emptyIfNull(m.Objects)
	m.Columns = emptyIfNull(m.Columns)
	m.WithGrantOption = boolOr(m.WithGrantOption, false)
	if m.Schema.IsUnknown() {
		m.Schema = types.StringNull()
	}
	if m.Privileges.IsNull() || m.Privileges.IsUnknown() {
		m.Privileges = tfkit.StringSet(nil)
	}
	m.ID = types.StringValue(m.id(ctx))
	return m, nil
}
