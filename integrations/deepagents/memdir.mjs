// memdir for DeepAgents (npm deepagents, read in 1.14.1): the agent's
// memory is memdir's directory, mounted in the agent's file system at
// /memories/, so what the agent saves with its own write_file and edit_file
// lands in memdir; memdir's MCP tools through @langchain/mcp-adapters; and
// "remember that" prompts saved as memdir capture saves them.
//
//   import { createDeepAgent } from 'deepagents'
//   import { memdirMemory } from './memdir.mjs'
//
//   const mem = await memdirMemory({ cwd: process.cwd() })
//   const agent = createDeepAgent({
//     model,
//     backend: mem.backend,             // /memories/ -> memdir's directory
//     memory: mem.memory,               // ["/memories/MEMORY.md"]
//     tools: await mem.tools(),         // memory_search, memory_show, ...
//     systemPrompt: mem.prompt,         // how memdir files memories
//   })
//   const saved = await mem.capture(prompt, threadId) // before each invoke
//   ...
//   await mem.close()
//
// DeepAgents reads the memory files once per thread (its MemoryMiddleware,
// through the backend) and puts them in the system message inside
// <agent_memory>. It reads exactly the paths in `memory`: there is no
// agent.md fallback. docs/deepagents.md has the details.
import { spawn } from 'node:child_process'
import { CompositeBackend, FilesystemBackend, StateBackend } from 'deepagents'

const ROUTE = '/memories/'

// run runs memdir with args, input on its standard input.
export function run(memdir, args, { cwd, input = '' } = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(memdir, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] })
		let stdout = ''
		let stderr = ''
		child.stdout.on('data', (d) => (stdout += d))
		child.stderr.on('data', (d) => (stderr += d))
		child.on('error', reject)
		child.on('close', (code) => resolve({ code, stdout, stderr }))
		child.stdin.on('error', () => {})
		child.stdin.end(input)
	})
}

// MemdirBackend is memdir's memory directory as a DeepAgents file system
// (virtual paths, nothing outside it reachable). After the agent writes or
// edits a topic file, memdir rebuilds MEMORY.md from the topic files, as
// `memdir watch` does, so the index the agent reads next lists it.
export class MemdirBackend extends FilesystemBackend {
	constructor({ dir, memdir = 'memdir', cwd }) {
		super({ rootDir: dir, virtualMode: true })
		this.memdir = memdir
		this.project = cwd // not this.cwd: FilesystemBackend keeps its root there
	}

	async write(path, content) {
		return this.#reindex(path, await super.write(path, content))
	}

	async edit(path, oldString, newString, replaceAll) {
		return this.#reindex(path, await super.edit(path, oldString, newString, replaceAll))
	}

	async #reindex(path, result) {
		if (!result?.error && /^\/?[^/]+\.md$/.test(path) && !/MEMORY(-\w+)?\.md$/.test(path)) {
			const r = await run(this.memdir, ['index', '--rebuild'], { cwd: this.project })
			if (r.code !== 0) console.warn(`memdir index --rebuild: ${r.stderr.trim()}`)
		}
		return result
	}
}

// PROMPT tells the agent how memdir files a memory, so what it saves is a
// memory memdir lists, searches and dreams over.
export const PROMPT = `Your long-term memory is the directory ${ROUTE} (memdir). To save a memory, write one file per topic:
${ROUTE}<type>_<name>.md, where type is user, feedback, project or reference and name is a few lowercase words joined by _,
starting with YAML frontmatter (name, description: one line, type), then the memory itself. Update an existing topic rather
than writing a second one. MEMORY.md is the index: memdir keeps it, do not edit it. To look up what is remembered beyond
the index, use memory_search.`

// memdirMemory resolves the project's memory directory (memdir path) and
// returns what createDeepAgent takes: a backend routing /memories/ to it
// (other paths go to defaultBackend, DeepAgents' StateBackend unless
// given), the memory list, a prompt, memdir's MCP tools, and capture.
export async function memdirMemory({ cwd = process.cwd(), memdir = 'memdir', defaultBackend } = {}) {
	const r = await run(memdir, ['path', '--json'], { cwd })
	if (r.code !== 0) throw new Error(`memdir path: ${r.stderr.trim()}`)
	const { dir } = JSON.parse(r.stdout)
	const init = await run(memdir, ['init'], { cwd })
	if (init.code !== 0) throw new Error(`memdir init: ${init.stderr.trim()}`)
	const files = new MemdirBackend({ dir, memdir, cwd })
	const backend = new CompositeBackend(defaultBackend ?? new StateBackend(), { [ROUTE]: files })
	let client
	return {
		dir,
		backend,
		memory: [ROUTE + 'MEMORY.md'],
		prompt: PROMPT,
		// tools starts `memdir mcp` and returns its tools as LangChain tools.
		async tools() {
			const { MultiServerMCPClient } = await import('@langchain/mcp-adapters')
			client ??= new MultiServerMCPClient({ mcpServers: { memdir: { transport: 'stdio', command: memdir, args: ['mcp'], cwd } } })
			return client.getTools()
		},
		// capture saves a prompt that asks to remember something ("# ...",
		// "remember that ..."), as memdir capture does for every agent, and
		// returns what to tell the model ('' for any other prompt).
		async capture(prompt, threadId = 'deepagents') {
			const input = JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: threadId, cwd, prompt })
			const c = await run(memdir, ['capture'], { cwd, input })
			if (c.code !== 0 || !c.stdout.trim()) return ''
			try {
				return JSON.parse(c.stdout)?.hookSpecificOutput?.additionalContext ?? ''
			} catch {
				return ''
			}
		},
		async close() {
			await client?.close()
		},
	}
}
