\connect postgres
CREATE ROLE "fx_dp_owner" WITH VALID UNTIL 'infinity' CONNECTION LIMIT -1 NOSUPERUSER NOCREATEDB NOCREATEROLE INHERIT NOLOGIN NOBYPASSRLS NOREPLICATION;
ALTER ROLE "fx_dp_owner" SET search_path TO DEFAULT;
CREATE ROLE "fx_dp_creator" WITH VALID UNTIL 'infinity' CONNECTION LIMIT -1 NOSUPERUSER NOCREATEDB NOCREATEROLE INHERIT NOLOGIN NOBYPASSRLS NOREPLICATION;
ALTER ROLE "fx_dp_creator" SET search_path TO DEFAULT;
\connect fx_dp_db
GRANT "fx_dp_owner" TO "fx_managed_admin";
ALTER DEFAULT PRIVILEGES FOR ROLE "fx_dp_owner"  REVOKE ALL ON FUNCTIONS FROM "public";
REVOKE "fx_dp_owner" FROM "fx_managed_admin";
GRANT "fx_dp_owner" TO "fx_managed_admin";
ALTER DEFAULT PRIVILEGES FOR ROLE "fx_dp_owner" IN SCHEMA "app" REVOKE ALL ON TABLES FROM "public";
ALTER DEFAULT PRIVILEGES FOR ROLE "fx_dp_owner" IN SCHEMA "app" GRANT SELECT ON TABLES TO "public";
REVOKE "fx_dp_owner" FROM "fx_managed_admin";
GRANT "fx_dp_owner" TO "fx_managed_admin";
ALTER DEFAULT PRIVILEGES FOR ROLE "fx_dp_owner"  REVOKE ALL ON SCHEMAS FROM "fx_dp_creator";
ALTER DEFAULT PRIVILEGES FOR ROLE "fx_dp_owner"  GRANT CREATE,USAGE ON SCHEMAS TO "fx_dp_creator";
REVOKE "fx_dp_owner" FROM "fx_managed_admin";
