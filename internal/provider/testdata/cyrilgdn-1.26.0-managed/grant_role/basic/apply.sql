\connect postgres
CREATE ROLE "fx_gro_member" WITH VALID UNTIL 'infinity' CONNECTION LIMIT -1 NOSUPERUSER NOCREATEDB NOCREATEROLE INHERIT LOGIN NOBYPASSRLS NOREPLICATION;
CREATE ROLE "fx_gro_group" WITH VALID UNTIL 'infinity' CONNECTION LIMIT -1 NOSUPERUSER NOCREATEDB NOCREATEROLE INHERIT NOLOGIN NOBYPASSRLS NOREPLICATION;
ALTER ROLE "fx_gro_member" SET search_path TO DEFAULT;
ALTER ROLE "fx_gro_group" SET search_path TO DEFAULT;
REVOKE "pg_read_all_data" FROM "fx_gro_member";
GRANT "pg_read_all_data" TO "fx_gro_member";
REVOKE "fx_gro_group" FROM "fx_gro_member";
GRANT "fx_gro_group" TO "fx_gro_member";
