package agentsetup

import (
	"fmt"
	"slices"
	"strings"
)

// editTOML writes or removes the [mcp_servers.memdir] block of Codex's
// config.toml.
func (t target) editTOML(src string, o Options) (string, []string, error) {
	sc, err := scanTOML(t.path, src)
	if err != nil {
		return "", nil, err
	}
	start, end, ok, err := t.fence.find(t.path, src)
	if err != nil || (o.Undo && !ok) {
		return src, nil, err
	}
	if !o.Undo {
		from, to := 0, 0
		if ok {
			from, to = lineOf(src, start), lineOf(src, end)
		}
		note, err := tomlConflict(t.path, sc, from, to)
		switch {
		case err != nil:
			return "", nil, err
		case note != "" && ok:
			return "", nil, fmt.Errorf("%s: the memdir MCP server is defined outside memdir's block too; remove one by hand (memdir changed nothing)", t.path)
		case note != "":
			return src, []string{note}, nil
		}
	}
	out, _, err := t.editBlock(src, o.Undo)
	if err != nil {
		return "", nil, err
	}
	if _, err := scanTOML(t.path, out); err != nil {
		return "", nil, fmt.Errorf("%s: memdir's own edit did not parse (a bug): %w", t.path, err)
	}
	return out, nil, nil
}

// tomlConflict looks outside memdir's block (lines from..to) for what
// would clash with adding [mcp_servers.memdir]: the server already defined
// (a note: it stays), or mcp_servers written as a value (an error).
func tomlConflict(path string, sc *tomlScan, from, to int) (string, error) {
	outside := func(line int) bool { return line < from || line >= to }
	for _, h := range sc.headers {
		if outside(h.line) && len(h.path) >= 2 && h.path[0] == "mcp_servers" && h.path[1] == "memdir" {
			return fmt.Sprintf("%s:%d already defines [mcp_servers.memdir]; left as it is", path, h.line), nil
		}
	}
	for _, k := range sc.keys {
		if !outside(k.line) || len(k.path) == 0 || k.path[0] != "mcp_servers" {
			continue
		}
		switch {
		case len(k.path) >= 2 && k.path[1] == "memdir", len(k.path) == 1 && slices.Contains(k.inline, "memdir"):
			return fmt.Sprintf("%s:%d already defines the memdir MCP server; left as it is", path, k.line), nil
		case len(k.path) == 1:
			return "", fmt.Errorf("%s:%d: mcp_servers is written as an inline table, which memdir cannot add to; add [mcp_servers.memdir] by hand (memdir changed nothing)", path, k.line)
		}
	}
	return "", nil
}

// lineOf is the 1-based line of offset pos.
func lineOf(src string, pos int) int { return 1 + strings.Count(src[:pos], "\n") }

// editBlock writes or removes the managed block.
func (t target) editBlock(src string, undo bool) (string, bool, error) {
	if undo {
		return t.fence.remove(t.path, src)
	}
	block := t.block
	if nl := lineEnding(src); nl != "\n" {
		block = strings.ReplaceAll(block, "\n", nl)
	}
	out, err := t.fence.put(t.path, src, block)
	return out, out != src, err
}
