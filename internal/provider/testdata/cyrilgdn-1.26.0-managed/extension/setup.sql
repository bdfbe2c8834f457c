SET ROLE fx_managed_admin;
-- Nothing to create beforehand: every object of this case is created by Terraform (see apply.sql).
