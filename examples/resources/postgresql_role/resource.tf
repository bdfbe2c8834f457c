# A group role: no login, memberships are granted to it.
resource "postgresql_role" "readers" {
  name = "readers"
}

# A login role whose password never reaches the state (Terraform >= 1.11).
variable "app_password" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "postgresql_role" "app" {
  name                = "app"
  login               = true
  password_wo         = var.app_password
  password_wo_version = "1" # change to set password_wo again
  connection_limit    = 20
  valid_until         = "2030-01-01 00:00:00+00"
  roles               = [postgresql_role.readers.name]
  search_path         = ["app", "$user", "public"]
  statement_timeout   = 30000
}
