// A loopback stand-in for the Anthropic API: it records each request body
// (one JSON line per request) and answers every /v1/messages call with a
// one-word reply, so `claude -p` runs offline and shows what it sends.
const http = require('http');
const fs = require('fs');
const [log, port] = process.argv.slice(2);
http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (d) => chunks.push(d));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    fs.appendFileSync(log, JSON.stringify({ url: req.url, body }) + '\n');
    if (!req.url.startsWith('/v1/messages')) { res.writeHead(404); res.end('{}'); return; }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 } }));
  });
}).listen(Number(port), '127.0.0.1');
