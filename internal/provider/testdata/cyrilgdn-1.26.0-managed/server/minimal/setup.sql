SET ROLE fx_managed_admin;
-- Nothing to create beforehand: every object of this case is created by Terraform (see apply.sql).
-- file_fdw is untrusted: installed by the superuser, as a managed service does, which
-- lets the admin use it (not dropped by teardown: other tests may use it).
RESET ROLE;
CREATE EXTENSION IF NOT EXISTS file_fdw;
GRANT USAGE ON FOREIGN DATA WRAPPER file_fdw TO fx_managed_admin WITH GRANT OPTION;
