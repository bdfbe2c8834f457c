\connect postgres
CREATE DATABASE "fx_fn_db" OWNER "fx_managed_admin" TEMPLATE template0 ENCODING 'UTF8' ALLOW_CONNECTIONS true CONNECTION LIMIT -1 IS_TEMPLATE false;
\connect fx_fn_db
CREATE SCHEMA IF NOT EXISTS "fn";
CREATE FUNCTION "fn"."fx_add" (
    a integer,
    b integer DEFAULT 1
)
RETURNS integer
LANGUAGE sql
IMMUTABLE
PARALLEL SAFE
STRICT
AS $function$SELECT a + b$function$;
