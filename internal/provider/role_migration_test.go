package provider

import (
	"testing"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// TestAccRoleMigration_cyrilgdn: real Terraform plans over the states written
// by cyrilgdn/postgresql 1.26 (after apply and after refresh) show no changes.
// The import case is left out: its configuration sets a password that the
// imported state cannot hold, so both providers plan to set it.
func TestAccRoleMigration_cyrilgdn(t *testing.T) {
	for _, c := range []struct{ dir, state string }{
		{"role/login_password_full", "terraform.tfstate"},
		{"role/login_password_full", "terraform.refreshed.tfstate"},
		{"role/nologin_flags", "terraform.tfstate"},
		{"role/nologin_flags", "terraform.refreshed.tfstate"},
		{"role/password_wo", "terraform.tfstate"},
		{"role/password_wo", "terraform.refreshed.tfstate"},
	} {
		t.Run(c.dir+"/"+c.state, func(t *testing.T) {
			acctest.MigrationPlanEmpty(t, "testdata/cyrilgdn/"+c.dir, acctest.MigrationOptions{StateFile: c.state})
		})
	}
}
