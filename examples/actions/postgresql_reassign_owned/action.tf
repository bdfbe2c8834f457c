# Give everything two departing roles own to the team's role, in the two
# databases where they created objects (REASSIGN OWNED works per database).
action "postgresql_reassign_owned" "offboarding" {
  config {
    old_roles = ["alice", "bob"]
    new_role  = "analytics_team"
    databases = ["analytics", "reporting"]
  }
}

# terraform apply -invoke=action.postgresql_reassign_owned.offboarding
