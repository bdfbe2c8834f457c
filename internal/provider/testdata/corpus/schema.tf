# Compatibility corpus: postgresql_schema as cyrilgdn/postgresql users write
# it, the deprecated policy blocks included. Database {{.P}} is made by the
# test (owned by the provider's role). See corpus_test.go for the format.

resource "postgresql_role" "app_www" {
  name = "{{.P}}_app_www"
}

resource "postgresql_role" "app_dba" {
  name = "{{.P}}_app_dba"
}

resource "postgresql_role" "app_releng" {
  name = "{{.P}}_app_releng"
}

# case: minimal
resource "postgresql_schema" "minimal" {
  name = "{{.P}}_minimal"
}

# case: in_database_with_owner
resource "postgresql_schema" "in_database" {
  name     = "app"
  database = "{{.P}}"
  owner    = postgresql_role.app_dba.name
}

# case: owner_is_admin
resource "postgresql_schema" "owner_admin" {
  name     = "owned"
  database = "{{.P}}"
  owner    = "{{.Admin}}"
}

# case: flags_spelled_out
resource "postgresql_schema" "flags" {
  name          = "{{.P}} Quoted.Schema"
  if_not_exists = false
  drop_cascade  = true
}

# case: if_not_exists_default
resource "postgresql_schema" "if_not_exists" {
  name          = "{{.P}}_ine"
  database      = "{{.P}}"
  if_not_exists = true
  drop_cascade  = false
}

# case: docs_policy_blocks
# The documentation's example: three deprecated policy blocks, role
# references written with the old interpolation syntax.
resource "postgresql_schema" "docs_policy" {
  name     = "my_schema"
  database = "{{.P}}"
  owner    = "{{.Admin}}"

  policy {
    usage = true
    role  = postgresql_role.app_www.name
  }

  # app_releng can create new objects in the schema.  This is the role that
  # migrations are executed as.
  policy {
    create = true
    usage  = true
    role   = postgresql_role.app_releng.name
  }

  policy {
    create_with_grant = true
    usage_with_grant  = true
    role              = postgresql_role.app_dba.name
  }
}

# case: policy_public
resource "postgresql_schema" "policy_public" {
  name     = "public_usage"
  database = "{{.P}}"

  policy {
    usage = true
  }
}

# case: policy_flags_spelled_false
resource "postgresql_schema" "policy_false" {
  name     = "spelled_false"
  database = "{{.P}}"

  policy {
    role              = postgresql_role.app_www.name
    usage             = true
    create            = false
    usage_with_grant  = false
    create_with_grant = false
  }
}

# case: policy_two_blocks_one_role
# The documentation says a role's policy blocks add up (usage in one, create in another).
resource "postgresql_schema" "policy_cumulative" {
  name     = "cumulative"
  database = "{{.P}}"

  policy {
    role  = postgresql_role.app_releng.name
    usage = true
  }

  policy {
    role   = postgresql_role.app_releng.name
    create = true
  }
}

# case: public_schema_adopted
# `public` exists already: if_not_exists (the default) adopts it.
resource "postgresql_schema" "public" {
  name     = "public"
  database = "{{.P}}"
}
