#!/usr/bin/env python3
"""Adapt the 1.26.0 cases (a scratch layout made by mkset.sh) to a provider connected as the
non-superuser admin fx_managed_admin (CREATEROLE CREATEDB, as on AWS RDS / Cloud SQL / Azure;
see managed-admin.sql) instead of the superuser postgres:

- header.tf: username/password of the admin, superuser = false;
- setup.sql runs as postgres, as before, but makes what the admin works on the admin's: it
  switches to the admin (SET ROLE) at its start and after every \\connect, so that databases,
  schemas, tables and roles are created by the admin, as a user of a managed service creates
  them; CREATE EXTENSION of an untrusted extension stays the superuser's (the service's), which
  grants the admin USAGE on the foreign-data wrapper;
- cases whose statements PostgreSQL reserves to superusers (or to roles with REPLICATION, which
  the admin lacks) are dropped, and where one resource of a case is reserved, that resource is
  removed or changed as listed below (a leading "# ADAPTED for a non-superuser admin" comment
  in main.tf says what).
"""
import os, re, shutil, subprocess
W = os.environ['FIXTURE_WORKDIR']
C = W + '/cases'
ADMIN = 'fx_managed_admin'
log = []

drop = {
    'publication/all_tables': 'CREATE PUBLICATION ... FOR ALL TABLES needs superuser',
    'extension/cascade': 'earthdistance is not a trusted extension (only a superuser may create it), and no trusted contrib extension depends on another',
    'subscription/create_slot_false': 'CREATE SUBSCRIPTION needs superuser on PostgreSQL 15 (pg_create_subscription came in 16)',
    'subscription/custom_slot_name': 'CREATE SUBSCRIPTION needs superuser on PostgreSQL 15 (pg_create_subscription came in 16)',
    'subscription/import': 'CREATE SUBSCRIPTION needs superuser on PostgreSQL 15 (pg_create_subscription came in 16)',
    'replication_slot/pgoutput_in_database': 'replication slots need superuser or REPLICATION, which the admin lacks',
    'replication_slot/test_decoding_default_db': 'replication slots need superuser or REPLICATION, which the admin lacks',
    'replication_slot/import': 'replication slots need superuser or REPLICATION, which the admin lacks',
    'physical_replication_slot/basic': 'replication slots need superuser or REPLICATION, which the admin lacks',
    'physical_replication_slot/import': 'replication slots need superuser or REPLICATION, which the admin lacks',
}


def remove_block(lines, header):
    """Remove the block starting with the line `header` and the comment lines above it."""
    h = lines.index(header)
    s = h
    while s > 0 and lines[s - 1].startswith('#'):
        s -= 1
    e = h
    while lines[e] != '}':
        e += 1
    del lines[s:e + 1]
    while s < len(lines) and lines[s] == '' and (s == 0 or lines[s - 1] == ''):
        del lines[s]


def remove_lines(lines, pattern):
    n = len(lines)
    lines[:] = [l for l in lines if not re.match(pattern, l)]
    return n - len(lines)


def no_extension(lines, setup_lines):
    """postgres_fdw / file_fdw are untrusted: the service (superuser) installs them."""
    notes = []
    for ext in ('postgres_fdw', 'file_fdw'):
        hdr = 'resource "postgresql_extension" "%s" {' % ext
        if hdr in lines:
            remove_block(lines, hdr)
            remove_lines(lines, r'^\s*depends_on\s*=\s*\[postgresql_extension\.%s\]\s*$' % ext)
            setup_lines.append('-- %s is untrusted: installed by the superuser, as a managed service does, which' % ext)
            setup_lines.append('-- lets the admin use it (not dropped by teardown: other tests may use it).')
            setup_lines.append('RESET ROLE;')
            setup_lines.append('CREATE EXTENSION IF NOT EXISTS %s;' % ext)
            setup_lines.append('GRANT USAGE ON FOREIGN DATA WRAPPER %s TO %s WITH GRANT OPTION;' % (ext, ADMIN))
            notes.append('removed postgresql_extension.%s (an untrusted extension: setup.sql installs it as the superuser '
                         'and grants the admin USAGE on its wrapper)' % ext)
    return notes


def adapt_body(case, lines, setup_lines):
    notes = no_extension(lines, setup_lines)
    if case == 'role/nologin_flags':
        n = remove_lines(lines, r'^\s*(replication|bypass_row_level_security)\s*=')
        assert n == 2
        remove_block(lines, 'resource "postgresql_role" "super" {')
        notes.append('removed replication = true, bypass_row_level_security = true and the superuser role '
                     'postgresql_role.super (only a superuser may give these attributes)')
    if case == 'database/full':
        assert remove_lines(lines, r'^\s*tablespace_name\s*=\s*"pg_default"\s*$') == 1
        notes.append('removed tablespace_name = "pg_default" (naming a tablespace needs CREATE on it, which the admin lacks '
                     'on pg_default; the database is in pg_default all the same)')
    if case == 'database/template_flags':
        i = lines.index('  owner                  = "postgres"')
        lines[i] = '  owner                  = "%s"' % ADMIN
        notes.append('owner is the admin, not postgres (a database owned by a superuser needs a superuser to make it)')
    if case == 'server/postgres_fdw_full':
        assert remove_lines(lines, r'^\s*server_owner\s*=\s*postgresql_role\.owner\.name\s*$') == 1
        notes.append('removed server_owner (cyrilgdn 1.26.0 gives the server to the role without making itself a member '
                     'of it first: "must be member of role fx_srv_owner"; the role it creates stays, unused)')
    if case == 'schema/policy_deprecated':
        i = lines.index('  owner = "postgres"')
        lines[i] = '  owner = "%s"' % ADMIN
        notes.append('owner is the admin, not postgres (only a superuser may give a schema to a superuser)')
    if case == 'publication/tables_list':
        setup_lines.append('-- cyrilgdn 1.26.0 sets the owner of a publication without making itself a member of the')
        setup_lines.append('-- owner role first (it does for databases and schemas): the admin is made one here.')
        setup_lines.append('SET ROLE %s;' % ADMIN)
        setup_lines.append('GRANT fx_pub_owner TO %s;' % ADMIN)
        notes.append('setup.sql makes the admin a member of fx_pub_owner (cyrilgdn 1.26.0 does not, before giving '
                     'it the publication: "must be member of role fx_pub_owner")')
    if case == 'security_label/role_label':
        i = lines.index('  label          = "top secret"')
        lines[i] = '  label          = "classified"'
        j = lines.index('# "top secret" may only be set by a superuser (dummy provider rule); label has a space.')
        lines[j] = '# The label provider "dummy" lets a non-superuser set "unclassified" and "classified" only.'
        notes.append('label "classified" instead of "top secret" (the dummy provider reserves "secret" and '
                     '"top secret" to superusers)')
    if case == 'security_label/import':
        i = lines.index('  label          = "secret"')
        lines[i] = '  label          = "classified"'
        notes.append('label "classified" instead of "secret" (the dummy provider reserves "secret" to superusers)')
    if case == 'user_mapping/no_options':
        i = lines.index('# Mapping for the connecting superuser (postgres), one option.')
        lines[i] = '# Mapping for the connecting admin, one option.'
        i = lines.index('  user_name   = "postgres"')
        lines[i] = '  user_name   = "%s"' % ADMIN
        notes.append('the mapping for the connecting user is for the admin, not for postgres')
    return notes


def adapt_setup(text):
    """SET ROLE to the admin at the start and after every \\connect."""
    out = ['SET ROLE %s;' % ADMIN]
    text = text.replace('(run as postgres, connected to "postgres").',
                        '(run as postgres, connected to "postgres"; SET ROLE makes them the admin\'s).')
    for l in text.split('\n'):
        if l.startswith('CREATE EXTENSION'):
            ext = re.match(r'CREATE EXTENSION (IF NOT EXISTS )?(\w+)', l).group(2)
            out += ['RESET ROLE;', l]
            if ext in ('postgres_fdw', 'file_fdw'):
                out.append('GRANT USAGE ON FOREIGN DATA WRAPPER %s TO %s WITH GRANT OPTION;' % (ext, ADMIN))
            out.append('SET ROLE %s;' % ADMIN)
            continue
        out.append(l)
        if l.startswith('\\connect '):
            out.append('SET ROLE %s;' % ADMIN)
    return '\n'.join(out)


for res in sorted(os.listdir(C)):
    for case in sorted(os.listdir(os.path.join(C, res))):
        c = '%s/%s' % (res, case)
        d = os.path.join(C, c)
        if c in drop:
            shutil.rmtree(d)
            log.append('%s: dropped (%s)' % (c, drop[c]))
            continue
        lines = open(d + '/body.hcl').read().split('\n')
        setup_extra = []
        notes = adapt_body(c, lines, setup_extra)
        setup = open(d + '/setup.sql').read() if os.path.exists(d + '/setup.sql') else ''
        new_setup = adapt_setup(setup.rstrip('\n'))
        if setup_extra:
            new_setup += '\n' + '\n'.join(setup_extra)
        open(d + '/setup.sql', 'w').write(new_setup + '\n')
        if not notes:
            continue
        body = ''.join('# ADAPTED for a non-superuser admin: %s.\n' % n for n in notes) + '\n'.join(lines)
        tmp = os.path.join(W, 'fmt.tf')
        open(tmp, 'w').write(body)
        subprocess.run(['terraform', 'fmt', tmp], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.move(tmp, d + '/body.hcl')
        log.append('%s: adapted: %s' % (c, '; '.join(notes)))
open(W + '/adaptations.txt', 'w').write('\n'.join(log) + '\n')
print('\n'.join(log))
