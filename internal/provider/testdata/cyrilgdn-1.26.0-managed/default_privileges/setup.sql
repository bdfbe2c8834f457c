SET ROLE fx_managed_admin;
-- Database and schema that the default privileges in main.tf refer to.
CREATE DATABASE fx_dp_db;
\connect fx_dp_db
SET ROLE fx_managed_admin;
CREATE SCHEMA app;
