\connect postgres
CREATE DATABASE "fx_sch_imp_db" OWNER "fx_managed_admin" TEMPLATE template0 ENCODING 'UTF8' ALLOW_CONNECTIONS true CONNECTION LIMIT -1 IS_TEMPLATE false;
CREATE ROLE "fx_sch_imp_owner" WITH VALID UNTIL 'infinity' CONNECTION LIMIT -1 NOSUPERUSER NOCREATEDB NOCREATEROLE INHERIT NOLOGIN NOBYPASSRLS NOREPLICATION;
ALTER ROLE "fx_sch_imp_owner" SET search_path TO DEFAULT;
\connect fx_sch_imp_db
GRANT "fx_sch_imp_owner" TO "fx_managed_admin";
CREATE SCHEMA IF NOT EXISTS "fx_sch_imp" AUTHORIZATION "fx_sch_imp_owner";
REVOKE "fx_sch_imp_owner" FROM "fx_managed_admin";
