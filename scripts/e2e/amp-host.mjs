// scripts/e2e/amp-host.mjs: plays Amp's side of the plugin protocol
// (newline-delimited JSON on the plugin runtime's stdin and stdout) against
// Amp's own plugin runtime, taken from the installed Amp binary:
//
//   node amp-host.mjs <amp> <plugin-runtime.ts> <plugin.ts> <project> <token>
//
// It answers the runtime's requests as Amp does (client.info, ui.notify,
// logging), then drives one thread: session.start, a first agent.start whose
// reply must carry the project's memory (the token), a second agent.start
// with a "remember that" prompt whose reply must say it was saved, and an
// agent.end. Prints one line per check; exits 1 when one fails.
import { spawn } from 'node:child_process'
import { pathToFileURL } from 'node:url'

const [amp, runtime, plugin, project, token] = process.argv.slice(2)
const child = spawn(amp, ['run', runtime, plugin], {
	cwd: project,
	env: { ...process.env, BUN_BE_BUN: '1', AMP_PLUGIN_URI: pathToFileURL(plugin).toString(), AMP_PLUGIN_RUNTIME_LOG_FILE: `${project}/../plugin-runtime.log` },
	stdio: ['pipe', 'pipe', 'inherit'],
})
const pending = new Map()
const waiters = new Map()
const notes = []
let next = 0
let buf = ''
const send = (m) => child.stdin.write(JSON.stringify(m) + '\n')
child.stdout.on('data', (d) => {
	buf += d
	const lines = buf.split('\n')
	buf = lines.pop()
	for (const line of lines) if (line.trim()) handle(JSON.parse(line))
})
function handle(m) {
	if (m.type === 'event') {
		waiters.get(m.event)?.()
		return
	}
	if (m.type === 'response') {
		const p = pending.get(m.id)
		pending.delete(m.id)
		if (m.error) p?.reject(new Error(m.error))
		else p?.resolve(m.result)
		return
	}
	// A request from the plugin: answer it as Amp would.
	let result = null
	switch (m.method) {
		case 'client.info':
			result = { ampURL: 'https://ampcode.com/', authenticatedUser: null, executorKind: 'local', workspaceRoot: pathToFileURL(project).toString() }
			break
		case 'ui.notify':
			notes.push(m.params.message)
			break
	}
	send({ type: 'response', id: m.id, result })
}
function request(method, params) {
	const id = `h-${++next}`
	return new Promise((resolve, reject) => {
		pending.set(id, { resolve, reject })
		send({ type: 'request', id, method, params })
	})
}
const event = (name) => new Promise((resolve) => waiters.set(name, resolve))

let failed = 0
function check(ok, what, detail = '') {
	console.log(`${ok ? 'ok  ' : 'FAIL'} amp: ${what}${ok || !detail ? '' : ': ' + detail}`)
	if (!ok) failed++
}

const thread = { id: 'T-e2e-amp-1' }
await event('runtime.ready')
const events = await request('events.list', {})
check(['session.start', 'agent.start', 'agent.end'].every((e) => events.includes(e)), 'the plugin registers session.start, agent.start and agent.end', JSON.stringify(events))
const t0 = Date.now()
await request('event', { event: 'session.start', data: { thread } })
check(Date.now() - t0 < 5000, `session.start returns without waiting for memdir (${Date.now() - t0} ms)`)
const first = await request('agent.start', { thread, message: 'How do we deploy to staging?', id: 'M-1' })
const content = first?.message?.content ?? ''
check(content.includes(token), 'the first turn carries the project memory', JSON.stringify(first).slice(0, 300))
check(content.split(token).length === 2, 'the memory is in the first turn once')
const second = await request('agent.start', { thread, message: 'remember that staging deploys need the VPN', id: 'M-2' })
const said = second?.message?.content ?? ''
check(/memdir saved the user's note/.test(said) && !said.includes(token), 'a "remember that" prompt is saved, and the memory is not repeated', JSON.stringify(second).slice(0, 300))
check(notes.some((n) => n.startsWith('memdir: remembered')), 'the person is told (ui.notify)', JSON.stringify(notes))
const end = await request('agent.end', {
	thread, message: 'remember that staging deploys need the VPN', id: 'M-2', status: 'done',
	messages: [{ role: 'user', id: 'M-2', content: [{ type: 'text', text: 'remember that staging deploys need the VPN' }] },
		{ role: 'assistant', id: 'M-3', content: [{ type: 'tool_use', id: 'tu1', name: 'Bash', input: { cmd: 'make deploy' } }] }],
})
check(end === undefined || end === null || end?.action !== 'continue', 'agent.end lets the turn end')
child.stdin.end()
await new Promise((r) => child.on('close', r))
process.exit(failed ? 1 : 0)
