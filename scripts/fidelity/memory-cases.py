"""Write the MEMORY.md cases of index/testdata/claude/<case>/MEMORY.md.

Each case exercises one rule of Claude Code's MEMORY.md loader: the line
cap, the size cap, both, a first line longer than the size cap, the
excerpt of the first line cut (80 units, a word boundary, a surrogate
pair at the cut), a blank first cut line, CRLF, frontmatter, HTML
comments and a byte order mark (stripped before measuring), and an index
within both caps. scripts/fidelity/memory-index records what Claude Code
does with each.
"""
import os, sys

out = sys.argv[1] if len(sys.argv) > 1 else 'index/testdata/claude'


def entry(i, hook=None):
    return f"- [Topic {i}](project_topic_{i}.md) \u2014 {hook if hook is not None else f'hook number {i}'}"


def lines(n, hook=None):
    return [entry(i, hook) for i in range(1, n + 1)]


long_hook = ' '.join(['word'] * 40)
emoji_hook = ' '.join(['\U0001F600 hook words'] * 12)
cases = {
    'within': '\n'.join(lines(200)) + '\n',
    'lines': '\n'.join(lines(250)) + '\n',
    'bytes': '\n'.join(lines(150, long_hook)) + '\n',
    'both': '\n'.join(lines(210, long_hook)) + '\n',
    'oneline': 'x' * 30000 + '\n- [A](project_a.md) \u2014 a\n',
    'emoji': '\n'.join(lines(130, emoji_hook)) + '\n',
    'splitpair': 'a' + '\U0001F600' * 13000 + '\n- [A](project_a.md) \u2014 a\n',
    'excerpt': '\n'.join(lines(200) + ['- [A very long title that keeps going](project_long.md) \u2014 ' + 'abcdefghij' * 12] + lines(3)) + '\n',
    'blankcut': '\n'.join(lines(200) + ['', '   '] + lines(5)) + '\n',
    'crlf': '\r\n'.join(lines(250)) + '\r\n',
    'lead': '\n\n  \n' + '\n'.join(lines(210)) + '\n\n\n   ',
    'frontmatter': '---\ntitle: index\n---\n\n' + '\n'.join(lines(202)) + '\n',
    'comments': '# Memory\n\n<!-- a note a person left\nacross lines -->\n\n' + '\n'.join(lines(200)) + '\n<!-- end -->\n- [Last](project_last.md) \u2014 after a comment\n',
    # The shape: 62 comment lines among 180 entries, all loaded.
    'comments_many': '\n'.join(sum([[l, '<!-- note %d -->' % i] if i < 62 else [l] for i, l in enumerate(lines(180))], [])) + '\n',
    'comments_unclosed': '# Memory\n<!-- never closed\n' + '\n'.join(lines(205)) + '\n',
    'comments_kept': '<!-- a --> text after the comment\n<!-- b -->\n\n' + '\n'.join(lines(203)) + '\n',
    'comments_crlf': '\r\n'.join(['<!-- a -->', ''] + lines(205)) + '\r\n',
    'comments_code': '```\n<!-- in code -->\n```\n' + '\n'.join(lines(200)) + '\n  <!-- indented -->\n- [Last](project_last.md) \u2014 last\n',
    'comments_list': '\n'.join(lines(100)) + '\n<!-- after a list item -->\n' + '\n'.join(lines(104)) + '\n',
    'bom': '\ufeff---\nx: y\n---\n' + '\n'.join(lines(201)) + '\n',
}
for name, text in cases.items():
    os.makedirs(os.path.join(out, name), exist_ok=True)
    with open(os.path.join(out, name, 'MEMORY.md'), 'w', encoding='utf-8', newline='') as f:
        f.write(text)
print(len(cases), 'cases in', out)
