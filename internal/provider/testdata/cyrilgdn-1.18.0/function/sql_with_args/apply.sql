\connect postgres
CREATE DATABASE "fx_fn_db" OWNER "postgres" TEMPLATE template0 ENCODING 'UTF8' ALLOW_CONNECTIONS true CONNECTION LIMIT -1 IS_TEMPLATE false;
\connect fx_fn_db
CREATE SCHEMA IF NOT EXISTS "fn";
CREATE FUNCTION "fn"."fx_add" (
    IN a integer,
    IN b integer DEFAULT 1
) RETURNS integer
AS $$SELECT a + b$$ LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE;
