"""Print the claudeMd section Claude Code sent in its first request."""
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if not r['body'] or not r['url'].startswith('/v1/messages'):
        continue
    text = json.loads(r['body'])['messages'][0]['content'][0]['text']
    start = text.find('# claudeMd\n')
    if start < 0:
        continue
    rest = text[start + len('# claudeMd\n'):]
    end = rest.find('\n# currentDate')
    sys.stdout.write(rest[:end] if end >= 0 else rest)
    break
