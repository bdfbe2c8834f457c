SET ROLE fx_managed_admin;
-- Database, tables and the (non-superuser) owner role used by the publications in main.tf.
CREATE DATABASE fx_pub_db;
CREATE ROLE fx_pub_owner NOLOGIN;
GRANT CREATE ON DATABASE fx_pub_db TO fx_pub_owner;
\connect fx_pub_db
SET ROLE fx_managed_admin;
CREATE SCHEMA app;
CREATE TABLE public.t1 (id integer PRIMARY KEY, v text);
CREATE TABLE app.t2 (id integer PRIMARY KEY, v text);
CREATE TABLE public.measurements (id integer, at date, PRIMARY KEY (id, at)) PARTITION BY RANGE (at);
CREATE TABLE public.measurements_2025 PARTITION OF public.measurements FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
