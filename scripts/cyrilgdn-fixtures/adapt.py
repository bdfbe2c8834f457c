#!/usr/bin/env python3
"""Adapt the 1.26.0 case bodies to an older cyrilgdn release: remove arguments that the
release does not have, add a comment saying so, drop cases whose resource type is missing.

Extended for 1.14.0 and 1.18.0 (the 1.19.0 version of this script handled arguments only):
- resource types a release lacks drop every case whose configuration uses them;
- grant object types a release lacks (`procedure` before 1.15.0, `column` before 1.19.0;
  default_privileges `schema` before 1.15.0) drop that one resource block from the case;
- before 1.19.0 `postgresql_function` has no `language` and its `body` is "everything after
  the return type" (`AS $$ ... $$ LANGUAGE plpgsql`, 1.18.0's documentation): the function
  cases are rewritten into that form, carrying the options the 1.26.0 case sets as arguments
  (language, volatility, strictness, parallel safety, security) in the body, so that the
  same function is created. 1.18.0 also requires `returns` when no OUT argument gives the
  result type (RETURNS is not computed): `returns = "void"` is added where it is missing.
"""
import os, re, shutil, subprocess, sys
ver = sys.argv[1]
W = os.environ['FIXTURE_WORKDIR']
C = W + '/cases'
def vt(v): return tuple(int(x) for x in v.split('.'))
V = vt(ver)
# argument -> first release that has it (from the releases' schemas, see README)
since = {
    'password_wo': '1.26.0', 'password_wo_version': '1.26.0',
    'alter_object_ownership': '1.23.0',
    'volatility': '1.21.0', 'strict': '1.21.0', 'parallel': '1.21.0', 'security_definer': '1.21.0',
    'assume_role': '1.17.0',
}
# resource type -> first release that has it
type_since = {
    'postgresql_security_label': '1.25.0',
    'postgresql_server': '1.18.0', 'postgresql_user_mapping': '1.18.0', 'postgresql_subscription': '1.18.0',
    'postgresql_publication': '1.16.0', 'postgresql_function': '1.16.0',
}
# grant / default_privileges object type -> first release that accepts it
grant_type_since = {
    'postgresql_grant': {'procedure': '1.15.0', 'column': '1.19.0'},
    'postgresql_default_privileges': {'schema': '1.15.0'},
}
missing = [a for a, s in since.items() if V < vt(s)]
missing_types = [t for t, s in type_since.items() if V < vt(s)]
legacy_function = V < vt('1.19.0')
log = []


def blocks(lines):
    """(start, end) line ranges of top-level blocks, start including the comment lines above."""
    out = []
    i = 0
    while i < len(lines):
        if re.match(r'^(resource|data) "', lines[i]):
            s = i
            while s > 0 and lines[s - 1].startswith('#'):
                s -= 1
            e = i
            while lines[e] != '}':
                e += 1
            out.append((s, i, e))
            i = e + 1
        else:
            i += 1
    return out


def attr(block, name):
    m = re.search(r'(?m)^  %s\s*=\s*(.*)$' % name, block)
    return m.group(1).strip() if m else None


def legacy_function_block(lines):
    """Rewrite one postgresql_function block (list of lines) into the pre-1.19.0 form."""
    text = '\n'.join(lines)
    lang = attr(text, 'language')
    lang = lang.strip('"') if lang else 'plpgsql'
    opts = []
    vol = attr(text, 'volatility')
    if vol:
        opts.append(vol.strip('"'))
    if attr(text, 'strict') == 'true':
        opts.append('STRICT')
    par = attr(text, 'parallel')
    if par:
        opts.append('PARALLEL ' + par.strip('"'))
    if attr(text, 'security_definer') == 'true':
        opts.append('SECURITY DEFINER')
    out, removed = [], []
    i = 0
    body = None
    while i < len(lines):
        l = lines[i]
        m = re.match(r'^  ([a-z_]+)\s*=\s*(.*)$', l)
        if m and m.group(1) in ('language', 'volatility', 'strict', 'parallel', 'security_definer'):
            removed.append(m.group(1)); i += 1; continue
        if m and m.group(1) == 'body':
            v = m.group(2)
            if v.startswith('<<-EOT'):
                j = i + 1
                inner = []
                while lines[j].strip() != 'EOT':
                    inner.append(lines[j]); j += 1
                body = ('heredoc', inner)
                i = j + 1
            else:
                body = ('string', v)
                i += 1
            out.append('@@BODY@@')
            continue
        out.append(l)
        i += 1
    tail = ' '.join(['LANGUAGE ' + lang] + opts)
    if body[0] == 'string':
        # "SELECT a + b" -> "AS $$SELECT a + b$$ LANGUAGE sql ..."
        new = ['  body = "AS $$%s$$ %s"' % (body[1][1:-1], tail)]
    else:
        ind = re.match(r'^(\s*)', body[1][0]).group(1)
        new = ['  body = <<-EOT', ind + 'AS $$'] + body[1] + [ind + '$$ ' + tail + ';', '  EOT']
    j = out.index('@@BODY@@')
    out[j:j + 1] = new
    if attr(text, 'returns') is None and not re.search(r'mode\s*=\s*"(OUT|INOUT)"', text):
        # before 1.19.0 RETURNS is not computed; CREATE FUNCTION needs it without OUT arguments
        k = next(n for n, l in enumerate(out) if l.startswith('  body'))
        out.insert(k, '  returns = "void"')
        removed.append('(added returns = "void")')
    return out, removed


for res in sorted(os.listdir(C)):
    for case in sorted(os.listdir(os.path.join(C, res))):
        p = os.path.join(C, res, case, 'body.hcl')
        src = open(p).read()
        used = sorted(set(re.findall(r'(?m)^resource "(postgresql_[a-z_]+)"', src)))
        lacking = [t for t in used if t in missing_types]
        if lacking:
            shutil.rmtree(os.path.join(C, res, case))
            log.append('%s/%s: dropped (%s %s not exist in %s)' % (res, case, ', '.join(lacking),
                       'does' if len(lacking) == 1 else 'do', ver))
            continue
        lines = src.split('\n')
        notes = []
        # grant resources with an object type the release lacks
        for s, h, e in reversed(blocks(lines)):
            blk = '\n'.join(lines[h:e + 1])
            rtype = lines[h].split('"')[1]
            if rtype not in grant_type_since:
                continue
            ot = attr(blk, 'object_type')
            ot = ot.strip('"') if ot else None
            if ot in grant_type_since[rtype] and V < vt(grant_type_since[rtype][ot]):
                name = lines[h].split('"')[3]
                del lines[s:e + 1]
                while s < len(lines) and s > 0 and lines[s] == '' and lines[s - 1] == '':
                    del lines[s]
                notes.append('removed %s.%s (object_type "%s" is not in this release)' % (rtype, name, ot))
        if legacy_function:
            for s, h, e in reversed(blocks(lines)):
                if not lines[h].startswith('resource "postgresql_function" '):
                    continue
                name = lines[h].split('"')[3]
                new, removed = legacy_function_block(lines[h:e + 1])
                lines[h:e + 1] = new
                notes.append('postgresql_function.%s: options moved into body, which holds everything after the '
                             'return type (no %s in this release)%s' % (
                                 name, ', '.join(x for x in removed if not x.startswith('(')) or 'language',
                                 '; added returns = "void" (required before 1.19.0)' if '(added returns = "void")' in removed else ''))
        out = []
        removed = []
        for l in lines:
            m = re.match(r'^\s*([a-z_]+)\s*=', l)
            if m and m.group(1) in missing:
                removed.append(m.group(1)); continue
            out.append(l)
        if not removed and not notes:
            continue
        names = sorted(set(removed))
        note = ''
        if names:
            note = ('# ADAPTED for cyrilgdn %s: removed %s (argument%s not in this release;\n'
                    '# the 1.26.0 case sets %s).\n') % (ver, ', '.join(names), 's' if len(names) > 1 else '',
                    'them' if len(names) > 1 else 'it')
        for n in notes:
            note += '# ADAPTED for cyrilgdn %s: %s.\n' % (ver, n)
        body = note + '\n'.join(out)
        # this comment describes the removed write-only arguments
        body = body.replace('# Write-only password (Terraform >= 1.11): password_wo is never stored in state,\n'
                            '# password_wo_version is stored and triggers a password change when bumped.\n',
                            '# Login role with a connection limit and no password (the 1.26.0 case gives it a\n'
                            '# write-only password here).\n')
        tmp = os.path.join(W, 'fmt.tf')
        open(tmp, 'w').write(body)
        subprocess.run(['terraform', 'fmt', tmp], check=True, stdout=subprocess.DEVNULL)
        shutil.move(tmp, p)
        log.append('%s/%s: adapted: %s' % (res, case, '; '.join(
            (['removed %s' % ', '.join('%s (x%d)' % (n, removed.count(n)) for n in names)] if names else []) + notes)))
if legacy_function and os.path.isdir(C + '/function/import'):
    # 1.18.0's function import fails (its Read ignores the ID) and leaves the function behind
    open(C + '/function/import/teardown.sql', 'w').write(
        '-- the import fails with cyrilgdn %s (its Read ignores the ID) and leaves the function behind\n'
        'DROP FUNCTION IF EXISTS public.fx_fn_imp(integer);\n' % ver)
open(W + '/adaptations.txt', 'w').write('\n'.join(log) + '\n')
print('\n'.join(log))
