package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/memdir/memdir/untrusted"
)

// The reference MCP memory server (@modelcontextprotocol/server-memory
// 2026.8.31, dist/index.js): a knowledge graph kept as JSON lines in
// memory.jsonl (memory.json before, MEMORY_FILE_PATH to move it), one
// object a line:
//
//	{"type":"entity","name":"John_Smith","entityType":"person","observations":["Speaks Spanish"]}
//	{"type":"relation","from":"John_Smith","to":"Anthropic","relationType":"works_at"}
//
// Each entity becomes one topic named after it: its observations as a
// list, then its relations (outgoing, and incoming ones as "<from>
// <relationType> this"), tagged with its entityType. A relation between
// entities the file does not hold is skipped.

// GraphLine is one line of memory.jsonl.
type GraphLine struct {
	Type         string   `json:"type"`
	Name         string   `json:"name"`
	EntityType   string   `json:"entityType"`
	Observations []string `json:"observations"`
	From         string   `json:"from"`
	To           string   `json:"to"`
	RelationType string   `json:"relationType"`
}

// ParseGraph reads memory.jsonl as the server does: blank lines skipped,
// every other line one JSON object; a line that is not one is an error
// (the server fails to load such a file too).
func ParseGraph(data []byte) ([]GraphLine, error) {
	var out []GraphLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), MaxFile)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var g GraphLine
		if err := json.Unmarshal(line, &g); err != nil {
			return nil, fmt.Errorf("line %d: not a JSON object of the memory server: %w", n, err)
		}
		out = append(out, g)
	}
	return out, sc.Err()
}

func readMCPMemory(path string) ([]Memory, []Skip, error) {
	data, err := untrusted.ReadFile(path, "", MaxFile)
	if err != nil {
		return nil, nil, &InputError{Msg: fmt.Sprintf("read %s: %v", path, err), Err: err}
	}
	lines, err := ParseGraph(data)
	if err != nil {
		return nil, nil, &InputError{Msg: fmt.Sprintf("%s: %v", path, err), Err: err}
	}
	type entity struct {
		GraphLine
		relations []string
	}
	var order []string
	byName := map[string]*entity{}
	for _, g := range lines {
		if g.Type != "entity" || strings.TrimSpace(g.Name) == "" {
			continue
		}
		if e, ok := byName[g.Name]; ok {
			e.Observations = append(e.Observations, g.Observations...)
			continue
		}
		byName[g.Name] = &entity{GraphLine: g}
		order = append(order, g.Name)
	}
	var skips []Skip
	for _, g := range lines {
		if g.Type != "relation" {
			continue
		}
		from, to := byName[g.From], byName[g.To]
		rel := strings.ReplaceAll(g.RelationType, "_", " ")
		switch {
		case from != nil:
			from.relations = append(from.relations, rel+" "+display(g.To))
		case to != nil:
			to.relations = append(to.relations, display(g.From)+" "+rel+" this")
		default:
			skips = append(skips, Skip{Source: path + "#" + g.From + "->" + g.To, Reason: "a relation between entities the file does not hold"})
		}
	}
	var mems []Memory
	for _, name := range order {
		e := byName[name]
		var b strings.Builder
		for _, o := range e.Observations {
			b.WriteString("- " + strings.TrimSpace(o) + "\n")
		}
		if len(e.relations) > 0 {
			b.WriteString("\nRelations:\n")
			for _, r := range e.relations {
				b.WriteString("- " + r + "\n")
			}
		}
		if strings.TrimSpace(b.String()) == "" {
			skips = append(skips, Skip{Source: path + "#" + name, Reason: "an entity with no observations or relations"})
			continue
		}
		m := Memory{Source: path + "#" + name, Name: display(name), Text: b.String()}
		if t := tag(e.EntityType); t != "" {
			m.Tags = []string{t}
		}
		mems = append(mems, m)
	}
	return mems, skips, nil
}

// display turns an entity name (John_Smith) into words.
func display(name string) string { return strings.TrimSpace(strings.ReplaceAll(name, "_", " ")) }

// tag makes s a tag memdir accepts: one word, no commas or brackets.
func tag(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == ',' || r == '[' || r == ']' || r < 0x20:
			return -1
		case r == ' ':
			return '-'
		}
		return r
	}, strings.TrimSpace(s))
	if len(s) > 40 {
		return ""
	}
	return s
}
