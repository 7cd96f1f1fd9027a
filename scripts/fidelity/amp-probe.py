#!/usr/bin/env python3
"""Extract Amp's JavaScript from its Bun executable and make a guidance probe.

usage: amp-probe.py <amp binary> <out.js> [<plugin-runtime.ts>]

Amp ships as a Bun executable: its JavaScript is UTF-16LE text in the ELF's
.bun section. This writes that bundle with two changes: the native keyring
module (inside the executable only) is stubbed, and when
MEMDIR_AMP_GUIDANCE_PROBE names a file, instead of the CLI it runs Amp's
own guidance discovery (uIt) for the working directory, with the files in
MEMDIR_AMP_READ (a JSON list) as the thread's read files, and writes what
it found there as JSON. Glob mentions need ripgrep (rg) on PATH, as Amp
does. With a third argument it also writes the plugin runtime Amp
launches plugins with (the MLt template literal).
"""
import re
import struct
import sys


def bun_text(path):
    f = open(path, 'rb').read()
    shoff = struct.unpack_from('<Q', f, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', f, 0x3A)
    sh = lambda i: struct.unpack_from('<IIQQQQIIQQ', f, shoff + i * shentsize)
    stoff = sh(shstrndx)[4]
    for i in range(shnum):
        s = sh(i)
        name = f[stoff + s[0]:f.index(b'\0', stoff + s[0])]
        if name == b'.bun':
            data = f[s[4]:s[4] + s[5]]
            m = re.search(rb'(?:[\x09\x0a\x0d\x20-\x7e]\x00|[\x80-\xff][\x00-\xff]){2000,}', data)
            return data[m.start():m.end()].decode('utf-16le', errors='replace')
    sys.exit('no .bun section in ' + path)


def template(js, name):
    """The cooked value of the template literal assigned to name."""
    s = js.index(name + '=`') + len(name) + 2
    i = s
    while js[i] != '`':
        i += 2 if js[i] == '\\' else 1
    raw, out, j = js[s:i], [], 0
    esc = {'n': '\n', 't': '\t', 'r': '\r', '0': '\0', 'b': '\b', 'f': '\f', 'v': '\v'}
    while j < len(raw):
        c = raw[j]
        if c != '\\':
            out.append(c); j += 1; continue
        n = raw[j + 1]
        if n == 'u' and raw[j + 2] == '{':
            k = raw.index('}', j); out.append(chr(int(raw[j + 3:k], 16))); j = k + 1
        elif n == 'u':
            out.append(chr(int(raw[j + 2:j + 6], 16))); j += 6
        elif n == 'x':
            out.append(chr(int(raw[j + 2:j + 4], 16))); j += 4
        elif n == '\n':
            j += 2
        else:
            out.append(esc.get(n, n)); j += 2
    return ''.join(out)


PROBE = r'''if(process.env.MEMDIR_AMP_GUIDANCE_PROBE){(async()=>{const cwd=process.cwd();const ws=await cst(cwd);const root=Ot.file(ws.workspaceRootPath);const reads=JSON.parse(process.env.MEMDIR_AMP_READ||"[]");const thread={env:{initial:{trees:[{uri:root.toString()}],workingDirectory:Ot.file(cwd).toString()}},messages:reads.length?[{role:"user",fileMentions:{files:reads.map((f)=>({uri:Ot.file(f)}))}}]:[]};const files=await uIt({configService:{workspaceRoot:re.of(root),userConfigDir:ml}},thread,void 0);await Bun.write(process.env.MEMDIR_AMP_GUIDANCE_PROBE,JSON.stringify({workspaceRoot:ws.workspaceRootPath,files:files.map((f)=>({path:Ot.parse(f.uri).fsPath,type:f.type,content:f.content}))},null,1)+"\n");process.exit(0)})().catch((err)=>{console.error(err);process.exit(3)});}else '''


def main():
    js = bun_text(sys.argv[1])
    if len(sys.argv) > 3:
        open(sys.argv[3], 'w').write(re.sub(r'^#!.*\n', '', template(js, 'MLt')))
    js = re.sub(r'oo\("/\$bunfs/root/keyring[^"]*\.node"\)', '{Entry:class{}}', js)
    if js.count('WRe().catch(') != 1:
        sys.exit('amp-probe.py: the CLI entry point moved; update the probe for this Amp release')
    i = js.index('WRe().catch(')
    open(sys.argv[2], 'w').write(js[:i] + PROBE + js[i:])


main()
