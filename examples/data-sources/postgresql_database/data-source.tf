data "postgresql_database" "shop" {
  name = "shop"
}

output "shop_owner" {
  value = data.postgresql_database.shop.owner
}
