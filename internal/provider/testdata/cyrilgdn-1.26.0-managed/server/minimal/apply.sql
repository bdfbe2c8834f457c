\connect postgres
CREATE SERVER "fx_srv_files" FOREIGN DATA WRAPPER "file_fdw";
