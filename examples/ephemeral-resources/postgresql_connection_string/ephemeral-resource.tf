# The application role's password, from a variable that is never stored.
variable "app_password" {
  type      = string
  sensitive = true
  ephemeral = true
}

# The provider's own connection (hosts, port, TLS) for the application role.
ephemeral "postgresql_connection_string" "app" {
  database    = "shop"
  username    = "app"
  password    = var.app_password
  check_login = true
}

# A second provider acting as the application role: what it creates, the role
# owns, and the role's password is in no plan or state.
provider "postgresql" {
  alias     = "app"
  host      = ephemeral.postgresql_connection_string.app.host
  port      = ephemeral.postgresql_connection_string.app.port
  database  = ephemeral.postgresql_connection_string.app.database
  username  = ephemeral.postgresql_connection_string.app.username
  password  = ephemeral.postgresql_connection_string.app.password
  sslmode   = ephemeral.postgresql_connection_string.app.sslmode
  superuser = false
}

resource "postgresql_schema" "app" {
  provider = postgresql.app
  database = "shop"
  name     = "app"
}

# Logical replication between two clusters: the subscriber connects to the
# publisher as the publisher's provider does, and the connection string goes
# to a write-only argument (Terraform 1.11+), never to a plan or a state.
provider "postgresql" {
  alias = "publisher"
  host  = "primary.example.com"
}

ephemeral "postgresql_connection_string" "publisher" {
  provider = postgresql.publisher
  database = "shop"
  username = "replicator"
  password = var.replicator_password
}

variable "replicator_password" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "postgresql_subscription" "orders" {
  name                = "orders_from_primary"
  database            = "shop_replica"
  conninfo_wo         = ephemeral.postgresql_connection_string.publisher.dsn
  conninfo_wo_version = "1"
  publications        = ["orders"]
}
