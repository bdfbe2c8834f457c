\connect postgres
CREATE ROLE "fx_sch_owner" WITH VALID UNTIL 'infinity' CONNECTION LIMIT -1 NOSUPERUSER NOCREATEDB NOCREATEROLE INHERIT NOLOGIN NOBYPASSRLS NOREPLICATION;
ALTER ROLE "fx_sch_owner" SET search_path TO DEFAULT;
CREATE DATABASE "fx_sch_db" OWNER "fx_managed_admin" TEMPLATE template0 ENCODING 'UTF8' ALLOW_CONNECTIONS true CONNECTION LIMIT -1 IS_TEMPLATE false;
CREATE SCHEMA IF NOT EXISTS "fx_sch_plain";
\connect fx_sch_db
GRANT "fx_sch_owner" TO "fx_managed_admin";
CREATE SCHEMA IF NOT EXISTS "app" AUTHORIZATION "fx_sch_owner";
REVOKE "fx_sch_owner" FROM "fx_managed_admin";
