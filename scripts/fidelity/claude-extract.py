"""Print the claudeMd section Claude Code sent in its first request.

Up to 2.1.197 it is the "# claudeMd" part of a context reminder; from
2.1.3xx it is a system reminder of its own that starts with "Codebase and
user instructions".
"""
import json, sys

OWN = '<system-reminder>\nCodebase and user instructions'


def claude_md(texts):
    for text in texts:
        start = text.find('# claudeMd\n')
        if start >= 0:
            rest = text[start + len('# claudeMd\n'):]
            end = rest.find('\n# currentDate')
            return rest[:end] if end >= 0 else rest
        if text.startswith(OWN):
            rest = text[len('<system-reminder>\n'):]
            end = rest.rfind('\n</system-reminder>')
            return rest[:end] if end >= 0 else rest
    return None


for line in open(sys.argv[1]):
    r = json.loads(line)
    if not r['body'] or not r['url'].startswith('/v1/messages'):
        continue
    content = json.loads(r['body'])['messages'][0]['content']
    found = claude_md([c.get('text', '') for c in content if isinstance(c, dict)])
    if found is not None:
        sys.stdout.write(found)
        break
