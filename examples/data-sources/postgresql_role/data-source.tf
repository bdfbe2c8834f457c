data "postgresql_role" "app" {
  name = "app"
}

output "app_can_login" {
  value = data.postgresql_role.app.login
}
