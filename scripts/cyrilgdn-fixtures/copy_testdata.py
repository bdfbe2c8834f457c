#!/usr/bin/env python3
"""Copy a fixture set (collect.sh layout) into the provider's testdata layout: per case main.tf,
setup.sql, apply.sql, teardown.sql (where the case has one), terraform.tfstate and
terraform.refreshed.tfstate (where it differs); a setup.sql or teardown.sql byte-identical in
every case of a type is stored once, in the type's directory. Cases without a state
(a failed import) are left out.   usage: copy_testdata.py SRC DEST"""
import os, shutil, sys
src, dst = sys.argv[1], sys.argv[2]
for typ in sorted(os.listdir(src)):
    if typ.startswith('_') or not os.path.isdir(os.path.join(src, typ)):
        continue
    cases = [c for c in sorted(os.listdir(os.path.join(src, typ)))
             if os.path.exists(os.path.join(src, typ, c, 'terraform.tfstate'))]
    if not cases:
        continue
    shared = {}
    everycase = sorted(os.listdir(os.path.join(src, typ)))  # with or without a state, as the older copies do
    for f in ('setup.sql', 'teardown.sql'):
        contents = set()
        for c in everycase:
            p = os.path.join(src, typ, c, f)
            contents.add(open(p).read() if os.path.exists(p) else None)
        if len(contents) == 1 and None not in contents:
            shared[f] = contents.pop()
    os.makedirs(os.path.join(dst, typ), exist_ok=True)
    for f, content in shared.items():
        open(os.path.join(dst, typ, f), 'w').write(content)
    for c in cases:
        d = os.path.join(dst, typ, c)
        os.makedirs(d, exist_ok=True)
        for f in ('main.tf', 'setup.sql', 'apply.sql', 'teardown.sql', 'terraform.tfstate', 'terraform.refreshed.tfstate'):
            if f in shared:
                continue
            p = os.path.join(src, typ, c, f)
            if os.path.exists(p):
                shutil.copyfile(p, os.path.join(d, f))
