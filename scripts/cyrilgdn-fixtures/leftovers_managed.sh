#!/bin/bash
# leftovers.sh for the managed set: the admin, its group, the grants that make it an admin and the
# untrusted FDW extensions the service (superuser) installs for it are expected to stay.
"$(dirname "$0")/leftovers.sh" | grep -v -E '^(role fx_managed_(admin|group)|ext (postgres_fdw|file_fdw)|func (postgres_fdw|file_fdw)_[a-z_]+)$' | grep -v -E '^acl-db-postgres \{=Tc/postgres,postgres=CTc/postgres,fx_managed_admin=C/postgres\}$'
