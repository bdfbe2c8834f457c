/*
 * dummy_seclabel: a security label provider for the acceptance tests of
 * postgresql_security_label. It behaves like PostgreSQL's test module of the
 * same name: it registers the provider "dummy", which accepts the labels
 * "unclassified" and "classified" from anyone and "secret" and "top secret"
 * from superusers only. Loaded through shared_preload_libraries.
 */
#include "postgres.h"

#include "commands/seclabel.h"
#include "fmgr.h"
#include "miscadmin.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

static void
pgtf_check_label(const ObjectAddress *object, const char *label)
{
	if (label == NULL)
		return;					/* removing a label is always allowed */
	if (strcmp(label, "unclassified") == 0 || strcmp(label, "classified") == 0)
		return;
	if (strcmp(label, "secret") == 0 || strcmp(label, "top secret") == 0)
	{
		if (!superuser())
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("only superuser can set '%s' label", label)));
		return;
	}
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_NAME),
			 errmsg("'%s' is not a valid security label", label)));
}

void
_PG_init(void)
{
	register_label_provider("dummy", pgtf_check_label);
}
