\connect postgres
SECURITY LABEL  FOR "dummy" ON table"fx_sl_t" IS 'classified';
CREATE ROLE "fx_sl_role2" WITH VALID UNTIL 'infinity' CONNECTION LIMIT -1 NOSUPERUSER NOCREATEDB NOCREATEROLE INHERIT NOLOGIN NOBYPASSRLS NOREPLICATION;
ALTER ROLE "fx_sl_role2" SET search_path TO DEFAULT;
CREATE SCHEMA IF NOT EXISTS "fx_sl_schema";
SECURITY LABEL  FOR "dummy" ON role"fx_sl_role2" IS 'unclassified';
SECURITY LABEL  FOR "dummy" ON schema"fx_sl_schema" IS 'classified';
