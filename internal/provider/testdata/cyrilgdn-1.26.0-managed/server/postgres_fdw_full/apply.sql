\connect postgres
CREATE ROLE "fx_srv_owner" WITH VALID UNTIL 'infinity' CONNECTION LIMIT -1 NOSUPERUSER NOCREATEDB NOCREATEROLE INHERIT NOLOGIN NOBYPASSRLS NOREPLICATION;
ALTER ROLE "fx_srv_owner" SET search_path TO DEFAULT;
CREATE SERVER "fx_srv_remote" TYPE 'postgresql' VERSION '15' FOREIGN DATA WRAPPER "postgres_fdw" OPTIONS (  "port" '5432',  "fetch_size" '500',  "host" 'db.example.internal',  "dbname" 'remote_db' );
