"""Print the AGENTS.md message of `codex debug prompt-input`."""
import json, sys
for item in json.load(sys.stdin):
    if item.get('type') == 'message' and item.get('role') == 'user':
        for c in item['content']:
            if c.get('text', '').startswith('# AGENTS.md instructions for '):
                sys.stdout.write(c['text'])
