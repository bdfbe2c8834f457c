\connect postgres
CREATE DATABASE "fx_ext_db" OWNER "fx_managed_admin" TEMPLATE template0 ENCODING 'UTF8' ALLOW_CONNECTIONS true CONNECTION LIMIT -1 IS_TEMPLATE false;
\connect fx_ext_db
CREATE SCHEMA IF NOT EXISTS "extensions";
CREATE EXTENSION IF NOT EXISTS "hstore" SCHEMA "extensions" VERSION "1.7";
