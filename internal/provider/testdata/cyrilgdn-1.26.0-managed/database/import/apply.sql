\connect postgres
CREATE ROLE "fx_db_imp_owner" WITH VALID UNTIL 'infinity' CONNECTION LIMIT -1 NOSUPERUSER NOCREATEDB NOCREATEROLE INHERIT NOLOGIN NOBYPASSRLS NOREPLICATION;
ALTER ROLE "fx_db_imp_owner" SET search_path TO DEFAULT;
GRANT "fx_db_imp_owner" TO "fx_managed_admin";
CREATE DATABASE "fx_db_imp" OWNER "fx_db_imp_owner" TEMPLATE template0 ENCODING 'UTF8' ALLOW_CONNECTIONS true CONNECTION LIMIT 7 IS_TEMPLATE false;
REVOKE "fx_db_imp_owner" FROM "fx_managed_admin";
