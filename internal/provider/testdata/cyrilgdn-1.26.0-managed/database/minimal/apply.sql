\connect postgres
CREATE DATABASE "fx_db_min" OWNER "fx_managed_admin" TEMPLATE template0 ENCODING 'UTF8' ALLOW_CONNECTIONS true CONNECTION LIMIT -1 IS_TEMPLATE false;
