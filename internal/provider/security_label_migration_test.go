package provider

import (
	"os"
	"testing"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// TestAccSecurityLabelMigration_cyrilgdn: real Terraform plans over the states
// written by cyrilgdn/postgresql 1.26 show no changes. Only role_label is
// covered here: schema_table_label needs postgresql_schema (another area) and
// the import case has no state (cyrilgdn's import failed).
func TestAccSecurityLabelMigration_cyrilgdn(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC (make testacc)")
	}
	skipWithoutDummyLabelProvider(t)
	for _, state := range []string{"terraform.tfstate", "terraform.refreshed.tfstate"} {
		t.Run(state, func(t *testing.T) {
			acctest.MigrationPlanEmpty(t, "testdata/cyrilgdn/security_label/role_label", acctest.MigrationOptions{StateFile: state})
		})
	}
}
