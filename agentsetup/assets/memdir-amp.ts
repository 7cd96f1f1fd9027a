// memdir-amp-plugin: written by `memdir setup amp`; `memdir setup amp --undo` removes it.
// Setup rewrites this file and `memdir doctor amp` reports a copy that differs: change memdir, not it.
//
// memdir keeps Amp's memory as markdown files. This plugin, on a thread's first
// prompt, adds memdir's context (MEMORY.md and the team's memory); saves a prompt
// that asks to remember something ("# ...", "remember that ..."); digests each turn
// when memdir's capture rules ask for it; and, when a session starts, lets memdir
// start an overdue dream or sync in the background. memdir's MCP server (the
// amp.mcpServers entry setup adds) serves search and the rest.
import type { PluginAPI } from '@ampcode/plugin'
import { spawn } from 'node:child_process'
import { appendFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const description = "memdir: memory from earlier sessions in each thread's first prompt; saves what you ask it to remember"

const MEMDIR = "memdir"
const TIMEOUT_MS = 30_000

interface Ran {
	code: number | null
	stdout: string
	stderr: string
}

// run runs memdir with args and input on its standard input. It uses
// node:child_process, not ctx.$: Amp's shell runner appends `< ""` to every
// command, so nothing could be piped in.
function run(args: string[], cwd: string, input = ''): Promise<Ran> {
	return new Promise((resolve) => {
		let stdout = ''
		let stderr = ''
		let child: ReturnType<typeof spawn>
		try {
			child = spawn(MEMDIR, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] })
		} catch (e) {
			resolve({ code: null, stdout, stderr: String(e) })
			return
		}
		const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS)
		child.stdout?.on('data', (d) => (stdout += d))
		child.stderr?.on('data', (d) => (stderr += d))
		child.on('error', (e) => {
			clearTimeout(timer)
			resolve({ code: null, stdout, stderr: stderr + String(e) })
		})
		child.on('close', (code) => {
			clearTimeout(timer)
			resolve({ code, stdout, stderr })
		})
		child.stdin?.on('error', () => {})
		child.stdin?.end(input)
	})
}

// hook is the hook input memdir capture reads, as Claude Code's hooks send it.
function hook(event: string, threadID: string, cwd: string, extra: Record<string, string> = {}): string {
	return JSON.stringify({ hook_event_name: event, session_id: threadID, cwd, ...extra })
}

// reply takes what memdir says to the model (additionalContext) and to the
// person (systemMessage) from a hook reply.
function reply(stdout: string): { context: string; message: string } {
	const text = stdout.trim()
	if (!text) return { context: '', message: '' }
	try {
		const r = JSON.parse(text)
		return { context: r?.hookSpecificOutput?.additionalContext ?? '', message: r?.systemMessage ?? '' }
	} catch {
		return { context: text, message: '' }
	}
}

export default function (amp: PluginAPI) {
	const cwd = (amp.system.workspaceRoot as { fsPath?: string } | null)?.fsPath || process.cwd()
	const contexts = new Map<string, Promise<string>>() // thread -> its memory, fetched at session start
	const started = new Set<string>() // threads whose first prompt got the memory
	const fail = (what: string, r: Ran) => amp.logger.log(`memdir ${what} failed (exit ${r.code}): ${r.stderr.trim()}`)

	// context runs `memdir context` for Amp. As for every session-start hook,
	// memdir starts an overdue dream or sync as a detached process of its own.
	const context = (threadID: string) =>
		run(['context', '--agent', 'amp', '--no-instructions', '--format', 'claude-hook'], cwd, '').then((r) => {
			if (r.code !== 0) fail('context', r)
			return r.code === 0 ? reply(r.stdout).context : ''
		})

	amp.on('session.start', (event) => {
		// Amp waits for this handler: start the work and return at once.
		if (!contexts.has(event.thread.id)) contexts.set(event.thread.id, context(event.thread.id))
	})

	amp.on('agent.start', async (event, ctx) => {
		const id = event.thread.id
		const parts: string[] = []
		if (!started.has(id)) {
			started.add(id)
			const memory = await (contexts.get(id) ?? context(id))
			contexts.delete(id)
			if (memory) parts.push(memory)
		}
		// After the memory, so that recall leaves out what it loaded.
		const recalled = await recall(event.message, id)
		if (recalled) parts.push(recalled)
		const r = await run(['capture'], cwd, hook('UserPromptSubmit', id, cwd, { prompt: event.message }))
		if (r.code !== 0) fail('capture', r)
		const saved = reply(r.stdout)
		if (saved.context) parts.push(saved.context)
		if (saved.message) ctx.ui.notify(saved.message).catch(() => {})
		return parts.length ? { message: { content: parts.join('\n\n'), display: false } } : {}
	})

	// ---- per-prompt recall: hook point ----
	// On every prompt, `memdir recall` (when this memdir has
	// it: `memdir recall --help` exits 0) gets the prompt as hook input and
	// answers as capture does; what it finds is added to the prompt.
	let recalls: Promise<boolean> | undefined
	async function recall(prompt: string, threadID: string): Promise<string> {
		recalls ??= run(['recall', '--help'], cwd).then((r) => r.code === 0)
		if (!(await recalls)) return ''
		const r = await run(['recall'], cwd, hook('UserPromptSubmit', threadID, cwd, { prompt }))
		if (r.code !== 0) fail('recall', r)
		return r.code === 0 ? reply(r.stdout).context : ''
	}
	// ---- end of the recall hook point ----

	amp.on('agent.end', async (event) => {
		// The turn goes to a transcript memdir capture reads (Claude Code's
		// format); capture digests it when its rules say so (log mode with an
		// external distiller) and otherwise does nothing.
		const path = transcript(event.thread.id, event.messages)
		if (!path) return
		const r = await run(['capture'], cwd, hook('SessionEnd', event.thread.id, cwd, { transcript_path: path, reason: 'agent.end' }))
		if (r.code !== 0) fail('capture', r)
	})
}

// transcript appends a turn's messages to the thread's transcript file and
// returns its path ('' when it cannot be written).
function transcript(threadID: string, messages: any[]): string {
	const dir = join(tmpdir(), `memdir-amp-${process.getuid?.() ?? 'user'}`)
	const path = join(dir, threadID.replace(/[^A-Za-z0-9_-]/g, '_') + '.jsonl')
	const lines: string[] = []
	for (const m of messages ?? []) {
		if (m?.role !== 'user' && m?.role !== 'assistant') continue
		const content = (m.content ?? []).flatMap((b: any) => block(b))
		if (content.length) lines.push(JSON.stringify({ type: m.role, message: { role: m.role, content } }) + '\n')
	}
	try {
		mkdirSync(dir, { recursive: true, mode: 0o700 })
		appendFileSync(path, lines.join(''), { mode: 0o600 })
		return path
	} catch {
		return ''
	}
}

// claudeNames are Amp's file tools under the names memdir capture knows.
const claudeNames: Record<string, string> = { edit_file: 'Edit', create_file: 'Write' }

// block is one Amp content block as Claude Code writes it: a shell command
// as `command`, an edited file as `file_path`, a failed tool as an error.
function block(b: any): any[] {
	switch (b?.type) {
		case 'text':
			return [{ type: 'text', text: String(b.text ?? '') }]
		case 'tool_use': {
			const input = { ...(b.input ?? {}) }
			if (typeof input.cmd === 'string') input.command = input.cmd
			if (typeof input.path === 'string') input.file_path = input.path
			return [{ type: 'tool_use', id: b.id, name: claudeNames[b.name] ?? b.name, input }]
		}
		case 'tool_result':
			if (b.status !== 'error') return []
			return [{ type: 'tool_result', tool_use_id: b.toolUseID, is_error: true, content: typeof b.output === 'string' ? b.output : JSON.stringify(b.output ?? 'error') }]
	}
	return []
}
