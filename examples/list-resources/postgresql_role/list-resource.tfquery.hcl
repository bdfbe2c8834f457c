# terraform query (Terraform 1.14+) lists the roles whose name starts with "app_";
# terraform query -generate-config-out=roles.tf writes their resource and import blocks.
list "postgresql_role" "app" {
  provider = postgresql
  config {
    like_any_patterns = ["app\\_%"]
  }
}
