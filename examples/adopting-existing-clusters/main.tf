# Adopting an existing cluster (docs/guides/adopting-existing-clusters.md): this directory holds the
# provider block and adopt.tfquery.hcl. `terraform query -generate-config-out=adopted.tf` writes the
# resource and import blocks of everything the query file lists; `terraform plan` then imports them
# without a change.
terraform {
  required_version = ">= 1.14" # terraform query
  required_providers {
    postgresql = {
      source = "pgtf/postgresql"
    }
  }
}

# The connection comes from PGHOST, PGPORT, PGUSER, PGPASSWORD, PGSSLMODE. The provider's database
# is where the cluster-wide objects' grants and comments are listed (cluster_wide).
provider "postgresql" {
  database = "postgres"
}
