SET ROLE fx_managed_admin;
-- Table that carries a label.
CREATE TABLE public.fx_sl_t (id integer);
