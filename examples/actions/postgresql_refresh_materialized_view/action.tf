# Refresh a materialized view without locking out its readers (CONCURRENTLY
# needs a unique index on the view).
action "postgresql_refresh_materialized_view" "daily_sales" {
  config {
    database     = "app"
    schema       = "reporting"
    name         = "daily_sales"
    concurrently = true
  }
}

# Run it on demand with
#   terraform apply -invoke=action.postgresql_refresh_materialized_view.daily_sales
# or after a change Terraform makes: here whenever the data release changes.
variable "data_release" {
  type = string
}

resource "terraform_data" "data_release" {
  input = var.data_release

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.postgresql_refresh_materialized_view.daily_sales]
    }
  }
}
