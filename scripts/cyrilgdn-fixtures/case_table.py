#!/usr/bin/env python3
# Case table of an older set for its README: the description from the 1.26.0 set's README, the
# result from summary.txt, the adaptation from adaptations.txt, notes from NOTES (case<TAB>note).
#   CYRILGDN_126_FIXTURES=<dir> case_table.py VERSION FIXTURE_WORKDIR [NOTES]
import os, re, sys
ver, W, notes_file = sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None
desc = {}
for l in open(os.environ['CYRILGDN_126_FIXTURES'] + '/README.md'):
    m = re.match(r'^\| (\w+) \| (\w+) \| (.*?) \| (\*\*\d\*\*|[\d /–-]+) \| (.*)\|$', l)
    if m:
        desc[m.group(1) + '/' + m.group(2)] = m.group(3)
res = {}
for l in open(W + '/summary.txt'):
    f = l.split()
    kv = dict(x.split('=', 1) for x in f[2:] if '=' in x)
    res[f[0]] = kv
adapt = {}
for l in open(W + '/adaptations.txt'):
    if ': ' in l:
        c, n = l.rstrip('\n').split(': ', 1)
        adapt[c] = n
extra = {}
if notes_file:
    for l in open(notes_file):
        if '\t' in l:
            c, n = l.rstrip('\n').split('\t', 1)
            extra[c] = n
print('| resource | case | what it covers (1.26.0 description) | apply | plan | import | notes for %s |' % ver)
print('|---|---|---|---|---|---|---|')
for c in desc:
    r, k = c.split('/')
    d = desc[c]
    a = adapt.get(c, '')
    if a.startswith('dropped'):
        print('| %s | %s | %s | – | – | – | **skipped**: %s |' % (r, k, d, a[len('dropped ('):-1]))
        continue
    if a.startswith('adapted'):
        d = '**ADAPTED** (%s). %s' % (a[len('adapted: '):], d)
    kv = res[c]
    apply_ = 'ok' if kv['apply'] == '0' else 'failed'
    plan = kv['plan_after_apply'] + ((' / ' + (kv['plan_after_import'] or '–')) if kv['import'] != '' else '')
    imp = '–' if kv['import'] == '' else ('ok' if kv['import'] == '0' else '**failed**')
    print('| %s | %s | %s | %s | %s | %s | %s |' % (r, k, d, apply_, plan, imp, extra.get(c, '')))
