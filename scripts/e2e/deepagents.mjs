// scripts/e2e/deepagents.mjs: DeepAgents keeping its memory in memdir,
// offline. Starts a fake OpenAI-compatible Chat Completions server on
// 127.0.0.1, builds an agent with integrations/deepagents/memdir.mjs as a
// DeepAgents user would (backend with /memories/ on memdir's directory,
// memory ["/memories/MEMORY.md"], memdir's MCP tools), and runs one turn the
// server scripts: a memory_search call, then a write_file of a new memory
// under /memories/, then an answer. Checks, from the recorded requests and
// from memdir: the project's memory is in the system message once, memdir's
// tools are offered, the search is answered with the planted memory, a
// "remember that" prompt is saved, and the memory the agent wrote is one
// `memdir list` lists, MEMORY.md indexes and `memdir search` finds.
//
//   node deepagents.mjs <project> <token>
//
// scripts/e2e/run-amp copies it, with integrations/deepagents/memdir.mjs,
// into the folder where it installed deepagents, and runs it there.
import { execFileSync } from 'node:child_process'
import http from 'node:http'
import { ChatOpenAI } from '@langchain/openai'
import { createDeepAgent } from 'deepagents'
import { memdirMemory } from './memdir.mjs'

const [project, token] = process.argv.slice(2)

const written = `---
name: Release notes style
description: Release notes list user-visible changes first, rn-e2e-2207
type: feedback
---

Release notes list user-visible changes first, then fixes (rn-e2e-2207).
`
const requests = []
const server = http.createServer((req, res) => {
	let body = ''
	req.on('data', (d) => (body += d))
	req.on('end', () => {
		const b = JSON.parse(body || '{}')
		requests.push(b)
		const tools = (b.tools ?? []).map((t) => t.function?.name)
		const search = tools.find((n) => n?.endsWith('memory_search'))
		const turns = (b.messages ?? []).filter((m) => m.role === 'tool').length
		let message
		if (turns === 0 && search) message = call(search, { query: 'deploy' })
		else if (turns === 1) message = call('write_file', { file_path: '/memories/feedback_release_notes_style.md', content: written })
		else message = { role: 'assistant', content: 'Noted: staging deploys run make deploy.' }
		answer(res, b, message)
	})
})
let n = 0
const call = (name, args) => ({ role: 'assistant', content: null, tool_calls: [{ id: `call_${++n}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }] })
function answer(res, b, message) {
	const base = { id: `chatcmpl-${n}`, created: 1764000000, model: b.model }
	const finish = message.tool_calls ? 'tool_calls' : 'stop'
	if (!b.stream) {
		res.writeHead(200, { 'content-type': 'application/json' })
		res.end(JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }],
			usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }))
		return
	}
	res.writeHead(200, { 'content-type': 'text/event-stream' })
	const delta = message.tool_calls ? { role: 'assistant', tool_calls: message.tool_calls.map((t, index) => ({ index, ...t })) } : { role: 'assistant', content: message.content }
	res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`)
	res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: finish }] })}\n\n`)
	res.end('data: [DONE]\n\n')
}
await new Promise((r) => server.listen(0, '127.0.0.1', r))
const url = `http://127.0.0.1:${server.address().port}/v1`

let failed = 0
function check(ok, what, detail = '') {
	console.log(`${ok ? 'ok  ' : 'FAIL'} deepagents: ${what}${ok || !detail ? '' : ': ' + detail}`)
	if (!ok) failed++
}
const memdir = (...args) => execFileSync('memdir', args, { cwd: project, encoding: 'utf8' })

const mem = await memdirMemory({ cwd: project })
const tools = await mem.tools()
const model = new ChatOpenAI({ model: 'gpt-4o-mini', apiKey: 'sk-e2e', configuration: { baseURL: url } })
const agent = createDeepAgent({ model, backend: mem.backend, memory: mem.memory, tools, systemPrompt: mem.prompt })

const said = await mem.capture('remember that the staging database is read-only on Fridays', 'thread-1')
check(/memdir saved the user's note/.test(said) && /staging_database/.test(memdir('list')), 'a "remember that" prompt is saved', said)
await agent.invoke({ messages: [{ role: 'user', content: 'How do we deploy to staging?' }] }, { configurable: { thread_id: 'thread-1' } })
await mem.close()
server.close()

const first = requests[0] ?? {}
const system = (first.messages ?? []).filter((m) => m.role === 'system' || m.role === 'developer')
	.map((m) => (typeof m.content === 'string' ? m.content : (m.content ?? []).map((c) => c.text ?? '').join(''))).join('\n')
check(system.split(token).length === 2, 'the project memory is in the system message once', `${system.split(token).length - 1} times`)
check(system.includes('<agent_memory>') && system.includes('/memories/MEMORY.md'), 'it comes from /memories/MEMORY.md through DeepAgents\' memory middleware')
const offered = (first.tools ?? []).map((t) => t.function?.name)
check(['memory_search', 'memory_show', 'memory_add'].every((t) => offered.some((o) => o?.endsWith(t))), "memdir's tools are offered", offered.join(' '))
const toolMsgs = requests.flatMap((r) => (r.messages ?? []).filter((m) => m.role === 'tool'))
const result = toolMsgs.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n')
check(result.includes(token), 'the memory_search call is answered with the planted memory', result.slice(0, 200))
check(/feedback_release_notes_style\.md/.test(memdir('list')), 'the memory the agent wrote is listed by memdir list')
check(/\(feedback_release_notes_style\.md\)/.test(memdir('index')), 'MEMORY.md indexes it')
check(/release_notes_style/.test(memdir('search', 'rn-e2e-2207')), 'memdir search finds it')
process.exit(failed ? 1 : 0)
