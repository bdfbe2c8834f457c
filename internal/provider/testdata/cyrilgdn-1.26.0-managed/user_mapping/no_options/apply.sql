\connect postgres
CREATE ROLE "fx_um_plain" WITH VALID UNTIL 'infinity' CONNECTION LIMIT -1 NOSUPERUSER NOCREATEDB NOCREATEROLE INHERIT NOLOGIN NOBYPASSRLS NOREPLICATION;
ALTER ROLE "fx_um_plain" SET search_path TO DEFAULT;
CREATE SERVER "fx_um_noopt_srv" FOREIGN DATA WRAPPER "postgres_fdw";
CREATE USER MAPPING  FOR "fx_um_plain" SERVER "fx_um_noopt_srv";
CREATE USER MAPPING  FOR "fx_managed_admin" SERVER "fx_um_noopt_srv" OPTIONS (  "user" 'postgres' );
