# Terraform 1.12 and later: import by identity.
import {
  to = postgresql_role_setting.app_work_mem
  identity = {
    role      = "app"
    parameter = "work_mem"
  }
}
