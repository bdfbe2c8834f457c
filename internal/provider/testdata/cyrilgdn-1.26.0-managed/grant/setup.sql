SET ROLE fx_managed_admin;
-- Objects that the grants in main.tf refer to (run as postgres, connected to "postgres"; SET ROLE makes them the admin's).
CREATE DATABASE fx_grant_db;
CREATE ROLE fx_gr_legacy NOLOGIN;
\connect fx_grant_db
SET ROLE fx_managed_admin;
CREATE SCHEMA app;
CREATE TABLE app.t1 (id integer PRIMARY KEY, name text, secret text);
CREATE TABLE app.t2 (id integer PRIMARY KEY, val text);
CREATE VIEW app.v1 AS SELECT id, name FROM app.t1;
CREATE SEQUENCE app.s1;
CREATE SEQUENCE app.s2;
CREATE FUNCTION app.f_add(a integer, b integer) RETURNS integer LANGUAGE sql AS 'SELECT a + b';
CREATE FUNCTION app.f_now() RETURNS timestamptz LANGUAGE sql AS 'SELECT now()';
CREATE PROCEDURE app.p_noop() LANGUAGE sql AS 'SELECT 1';
RESET ROLE;
CREATE EXTENSION postgres_fdw;
GRANT USAGE ON FOREIGN DATA WRAPPER postgres_fdw TO fx_managed_admin WITH GRANT OPTION;
SET ROLE fx_managed_admin;
CREATE SERVER fx_grant_srv FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host 'localhost', dbname 'postgres');
-- a pre-existing grant that fdw_server_revoke/main.tf revokes with privileges = []
GRANT USAGE ON SCHEMA app TO fx_gr_legacy;
GRANT SELECT, INSERT ON app.t2 TO fx_gr_legacy;
