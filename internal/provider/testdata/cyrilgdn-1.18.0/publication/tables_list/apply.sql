\connect postgres
CREATE PUBLICATION fx_pub_empty;
\connect fx_pub_db
CREATE PUBLICATION fx_pub_some FOR TABLE app.t2, public.measurements, public.t1 WITH (publish_via_partition_root = true,publish = 'insert, update, delete, truncate');
ALTER PUBLICATION fx_pub_some OWNER TO fx_pub_owner;
