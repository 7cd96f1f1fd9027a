// Runs Gemini CLI core's own memory loader on the working directory, as its
// MemoryContextManager does for a trusted folder, and prints the global and
// project context rendered by its renderUserMemory, then, for each path
// given as an argument, the context its just-in-time loader adds when a
// tool touches that file.
import path from 'node:path';
// The loader's debug and error logs go to the console: keep stdout for the text.
console.debug = console.log = console.info = () => {};
import { pathToFileURL } from 'node:url';
const core = process.env.GEMINI_CORE;
const md = await import(pathToFileURL(path.join(core, 'dist/src/utils/memoryDiscovery.js')));
const sn = await import(pathToFileURL(path.join(core, 'dist/src/prompts/snippets.js')));
const cwd = process.cwd();
const global = await md.getGlobalMemoryPaths();
const project = await md.getEnvironmentMemoryPaths([cwd]);
const all = [...new Set([...global, ...project])];
const contents = await md.readGeminiMdFiles(all, 'tree', ['.git']);
const map = new Map(contents.map((c) => [c.filePath, c]));
const mem = md.categorizeAndConcatenate({ global, extension: [], project }, map);
let out = sn.renderUserMemory({ global: mem.global, project: mem.project }).replace(/^\n---\n\n/, '');
const loaded = new Set(contents.filter((c) => c.content !== null).map((c) => c.filePath));
for (const f of process.argv.slice(2)) {
  const jit = await md.loadJitSubdirectoryMemory(path.resolve(cwd, f), [cwd], loaded);
  const text = md.concatenateInstructions(jit.files.map((x) => ({ filePath: x.path, content: x.content })));
  if (text) out += '\n' + text;
}
process.stdout.write(out + '\n');
