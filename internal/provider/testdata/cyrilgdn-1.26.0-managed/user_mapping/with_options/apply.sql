\connect postgres
CREATE SERVER "fx_um_remote" FOREIGN DATA WRAPPER "postgres_fdw" OPTIONS (  "dbname" 'remote_db',  "host" 'db.example.internal' );
CREATE ROLE "fx_um_local" WITH VALID UNTIL 'infinity' CONNECTION LIMIT -1 NOSUPERUSER NOCREATEDB NOCREATEROLE INHERIT NOLOGIN NOBYPASSRLS NOREPLICATION;
ALTER ROLE "fx_um_local" SET search_path TO DEFAULT;
CREATE USER MAPPING  FOR "fx_um_local" SERVER "fx_um_remote" OPTIONS (  "password" 'fx-remote-pass-1',  "user" 'remote_user' );
