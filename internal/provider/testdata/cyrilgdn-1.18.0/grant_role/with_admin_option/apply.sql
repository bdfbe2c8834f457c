\connect postgres
CREATE ROLE "fx_gro_admin_group" WITH VALID UNTIL 'infinity' CONNECTION LIMIT -1 NOSUPERUSER NOCREATEDB NOCREATEROLE INHERIT NOLOGIN NOBYPASSRLS NOREPLICATION;
ALTER ROLE "fx_gro_admin_group" SET search_path TO DEFAULT;
CREATE ROLE "fx_gro_admin_member" WITH VALID UNTIL 'infinity' CONNECTION LIMIT -1 NOSUPERUSER NOCREATEDB NOCREATEROLE INHERIT LOGIN NOBYPASSRLS NOREPLICATION;
ALTER ROLE "fx_gro_admin_member" SET search_path TO DEFAULT;
REVOKE "fx_gro_admin_group" FROM "fx_gro_admin_member";
REVOKE "pg_monitor" FROM "fx_gro_admin_member";
GRANT "pg_monitor" TO "fx_gro_admin_member";
GRANT "fx_gro_admin_group" TO "fx_gro_admin_member" WITH ADMIN OPTION;
