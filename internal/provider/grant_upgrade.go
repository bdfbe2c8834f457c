package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

// upgradeGrantV0 reads cyrilgdn/postgresql 1.26's postgresql_grant, whose
// layout is grantModel's: `privileges = []` is stored there as null (-> empty
// set). Null objects/columns (what cyrilgdn stores when they are unset) stay
// null: unset, [] and null mean the same ("all"/"none"), the plan keeps the
// state's null while the configuration leaves them unset
// (tfkit.UnsetSetPlan), and a whole-resource output of the grant does not
// move after the switch. The id is cyrilgdn's, computed again (the same
// text).
func upgradeGrantV0(ctx context.Context, m grantModel) (grantModel, diag.Diagnostics) {
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
