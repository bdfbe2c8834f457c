-- The non-superuser admin of the managed-mode fixture server, made like the managed admin of the
-- project's test clusters (scripts/testdb: tfacc_managed_admin), i.e. like the admin of AWS RDS,
-- Cloud SQL or Azure: a CREATEROLE CREATEDB role, member of the service's group role, which holds
-- the predefined roles those services hand out, with ADMIN OPTION. Run once, as postgres, on the
-- fixture server (PostgreSQL 15).
CREATE ROLE fx_managed_group NOLOGIN;
GRANT pg_signal_backend, pg_read_all_stats, pg_read_all_settings, pg_monitor TO fx_managed_group WITH ADMIN OPTION;
GRANT pg_read_all_data, pg_write_all_data TO fx_managed_group WITH ADMIN OPTION;
CREATE ROLE fx_managed_admin LOGIN CREATEROLE CREATEDB PASSWORD 'fxmanagedpw' IN ROLE fx_managed_group;
GRANT CREATE ON DATABASE postgres TO fx_managed_admin;
GRANT CREATE ON SCHEMA public TO fx_managed_admin;
GRANT SET ON PARAMETER log_statement, log_min_error_statement, log_min_duration_statement, log_min_duration_sample TO fx_managed_admin;
