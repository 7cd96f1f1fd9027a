// Claude Code 2.1.332: its MEMORY.md loader (HMo) and the helpers it calls,
// cut verbatim from @anthropic-ai/claude-code-linux-x64, file package/claude,
// by scripts/fidelity/memory-index. Below them: the runner (not Claude's).
var sy="MEMORY.md",eV=200,zye=25000,u1s=4*zye,ght=200,n1e=4096;
function _ht(t){let r=t.trim();return{trimmed:r,lineCount:At(r,`
`)+1,byteCount:r.length}}
function At(t,n,e=0){let r=0,i=t.indexOf(n,e);while(i!==-1)r++,i=t.indexOf(n,i+1);return r}
function ee(t,n){if(n<=0)return"";if(t.length<=n)return t;let e=t.slice(0,n),r=e.charCodeAt(n-1);return s2(r>=55296&&r<=56319?e.slice(0,-1):e)}
function s2(t){if(typeof Buffer<"u")return Buffer.from(t,"utf16le").toString("utf16le");return y(t)}
function PW(t,n){if(t.length<=n)return t;let e=ee(t,n-1),r=e.search(/\s\S*$/),i=r===-1?"":e.slice(0,r).trimEnd();return`${i.length>n/2?i:e.trimEnd()}\u2026`}
function pn(r){let e=r/1024;if(e<1)return`${r} bytes`;if(e<1024)return`${e.toFixed(1).replace(/\.0$/,"")}KB`;let n=e/1024;if(n<1024)return`${n.toFixed(1).replace(/\.0$/,"")}MB`;return`${(n/1024).toFixed(1).replace(/\.0$/,"")}GB`}
function HMo(e){let{trimmed:n,lineCount:o,byteCount:g}=_ht(e),h=o>eV,y=g>zye;if(!h&&!y)return{content:n,lineCount:o,byteCount:g,wasLineTruncated:h,wasByteTruncated:y};let k=h?n.split(`
`).slice(0,eV).join(`
`):n;if(k.length>zye){let H=k.lastIndexOf(`
`,zye);k=k.slice(0,H>0?H:zye)}let C=n[k.length]===`
`?At(k,`
`)+1:0,x=k.length+1,D=n.indexOf(`
`,x),L=n.slice(x,D<0?void 0:D).trim(),I=C===0?`everything after the first ${k.length} characters of line 1 was cut off`:`${o-C} of ${o} lines were cut off, starting at line ${C+1}${L?` ("${PW(L,80)}")`:""}`,W=y&&!h?`${pn(g)} (limit: ${pn(zye)}) \u2014 index entries are too long`:h&&!y?`${o} lines (limit: ${eV})`:`${o} lines and ${pn(g)}`,z=`${sy} is ${W}. Only part of it was loaded: ${I}. Keep index entries to one line under ~200 chars; move detail into topic files.`;return{content:k+`

> WARNING: ${z}`,lineCount:o,byteCount:g,wasLineTruncated:h,wasByteTruncated:y}}

// Runner: node loader.js FILE prints HMo(the file's text).content; a lone
// surrogate, which UTF-8 cannot hold, is left out (the client drops it too).
process.stdout.write(HMo(require('fs').readFileSync(process.argv[2], 'utf8')).content
  .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, ''));
