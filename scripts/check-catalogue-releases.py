#!/usr/bin/env python3
"""Checks the catalogue's `releases` column against the Ozone source at the release tags.

For every kind of `oztrace explain --kinds` (Ratis kinds excepted) it looks for the template's
literal fragments in the class's source at each tag (string concatenations joined, `" + x + "`
read as a placeholder) and prints, per row, the tags whose source has the wording. A row whose
`releases` starts later or earlier than what is found is printed with `MISMATCH`. Templates written
as prose (`X / Y`, code expressions) find nothing and are printed with `UNCHECKED`.

Usage: scripts/check-catalogue-releases.py [OZTRACE] [GIT_DIR]
  (defaults: target/debug/oztrace, /work/.mirror/apache+ozone/repo)
"""
import subprocess, re, sys, collections, json
BIN=sys.argv[1] if len(sys.argv)>1 else "target/debug/oztrace"
G=["git","--git-dir="+(sys.argv[2] if len(sys.argv)>2 else "/work/.mirror/apache+ozone/repo")]
lines=subprocess.run([BIN,"explain","--kinds"],capture_output=True,text=True,check=True).stdout.split('\n')
hdr=lines[0]
cols=[hdr.index(c) for c in ['kind','log','level','class','releases','template']]
rows=[]
for l in lines[1:]:
    if not l.strip(): continue
    rows.append([l[cols[i]:(cols[i+1] if i+1<len(cols) else None)].strip() for i in range(len(cols))])
TAGS=["ozone-1.3.0","ozone-1.4.0","ozone-1.4.1","ozone-2.0.0","ozone-2.1.0","ozone-2.2.0","HEAD"]
def files(tag):
    fs=subprocess.run(G+["ls-tree","-r","--name-only",tag],capture_output=True,text=True).stdout.split('\n')
    by=collections.defaultdict(list)
    for p in fs:
        if p.endswith('.java') and '/src/main/java/' in p: by[p.rsplit('/',1)[1][:-5]].append(p)
    return by
cache={}
def src(tag,path):
    k=(tag,path)
    if k not in cache:
        t=subprocess.run(G+["show",f"{tag}:{path}"],capture_output=True,text=True).stdout
        t=re.sub(r'"\s*\+\s*"', '', t)
        t=re.sub(r'"\s*\+\s*[^";]*?\s*\+\s*"', '{}', t)
        t=re.sub(r'\s+',' ',t)
        cache[k]=t
    return cache[k]
result={}
for tag in TAGS:
    by=files(tag)
    for kind,log,level,cls,rel,tmpl in rows:
        if cls.startswith('org.apache.ratis') or 'Ratis' in rel: continue
        name=cls.split(' ')[0].rsplit('.',1)[-1].split('$')[0].split('(')[0]
        paths=by.get(name,[])
        text=''.join(src(tag,p) for p in paths)
        t=re.sub(r'\s+',' ',tmpl)
        frags=[x for x in re.split(r'\{\}',t) if len(x.strip())>=4]
        ok= bool(paths) and bool(frags) and all((x in text or x.strip() in text) for x in frags)
        result.setdefault((kind,cls,tmpl,rel),[]).append(tag if ok else None)
SHORT={"ozone-1.3.0":"1.3","ozone-1.4.0":"1.4","ozone-1.4.1":"1.4.1","ozone-2.0.0":"2.0","ozone-2.1.0":"2.1","ozone-2.2.0":"2.2","HEAD":"HEAD"}
for (kind,cls,tmpl,rel),tags in result.items():
    present=[SHORT[t] for t in tags if t]
    if not present:
        status="UNCHECKED"
    else:
        status="ok" if rel.startswith(present[0]) or (present==["HEAD"] and ("HEAD" in rel or "unreleased" in rel)) else "MISMATCH"
    print(f"{status:9} {kind:40} {rel[:40]:40} found in: {' '.join(present)}")
