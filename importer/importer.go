// Package importer brings memories from other memory tools into a memdir
// memory directory: Claude Code's auto memory (one project's directory or
// all of them), Gemini CLI's saved memories, the reference MCP memory
// server's knowledge graph, basic-memory's notes, mem0/OpenMemory exports
// and claude-mem's SQLite store. docs/import.md lists each source's format
// and the release it was read from.
//
// Every source file is untrusted: it is opened through package untrusted
// (no link out of its directory, regular files only), each file and the
// number of files and memories are bounded (the Max constants), and what
// is read only becomes memory through the store's own doors: a Claude
// topic file that no memdir topic names is copied byte for byte and given
// its index line by the store's reconciliation; everything else goes
// through memdir's add (validated, scanned for credentials, <private>
// spans dropped, merged into a topic of the same name or a similar one).
// A memory without a type gets one from the dream's rules
// (dream.Classify); relative dates become absolute against the memory's
// own date (reldate). Nothing is deleted or changed at the source, and a
// second import of the same source changes nothing.
package importer

import (
	"errors"
	"fmt"
	"time"

	"github.com/memdir/memdir/typesx"
)

// Bounds on what one import reads: far above any real store, they keep a
// hostile source from exhausting memory or time.
const (
	// MaxFile caps one source file (a topic, a GEMINI.md, an export).
	MaxFile = 8 << 20
	// MaxFiles caps the files read from one source directory tree.
	MaxFiles = 20000
	// MaxMemories caps the memories one import brings in.
	MaxMemories = 50000
	// MaxDepth caps how deep a directory source is walked.
	MaxDepth = 8
)

// Kind names a source format.
type Kind string

// The sources memdir imports from.
const (
	Claude      Kind = "claude"       // Claude Code auto memory: a memory directory, or ~/.claude/projects
	Gemini      Kind = "gemini"       // Gemini CLI's GEMINI.md "## Gemini Added Memories"
	MCPMemory   Kind = "mcp-memory"   // @modelcontextprotocol/server-memory memory.jsonl
	BasicMemory Kind = "basic-memory" // basic-memory markdown notes
	Mem0        Kind = "mem0"         // mem0 / OpenMemory JSON export
	ClaudeMem   Kind = "claude-mem"   // claude-mem's SQLite database
)

// Kinds are the sources in the order help lists them.
var Kinds = []Kind{Claude, Gemini, MCPMemory, BasicMemory, Mem0, ClaudeMem}

// ParseKind reads a --from value.
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds {
		if string(k) == s {
			return k, nil
		}
	}
	return "", &InputError{Msg: fmt.Sprintf("unknown source kind %q: use one of claude, gemini, mcp-memory, basic-memory, mem0, claude-mem", s)}
}

// Memory is one memory read from a source, before it is written.
type Memory struct {
	// Source says where it came from: a file, file:line or file#name.
	Source string `json:"source"`
	// File and Raw are a topic file in memdir's own format (Claude's auto
	// memory) and its bytes: copied byte for byte when no memdir topic
	// has that name. Empty for every other source.
	File string `json:"-"`
	Raw  []byte `json:"-"`
	// Type is the memory's type; "" has it inferred (dream.Classify).
	Type        typesx.Type `json:"type,omitempty"`
	Name        string      `json:"name"`
	Description string      `json:"-"`
	Text        string      `json:"-"`
	Tags        []string    `json:"-"`
	// Date is when the memory was written: relative dates in it resolve
	// against this day. Zero: the day of the import.
	Date time.Time `json:"-"`
}

// Skip is something a reader passed over, and why.
type Skip struct {
	Source string `json:"source"`
	Reason string `json:"reason"`
}

// InputError is a source memdir cannot read as the kind it was told or
// detected: the person's to fix, and nothing was written.
type InputError struct {
	Msg string
	Err error
}

func (e *InputError) Error() string { return e.Msg }

// Unwrap returns the cause.
func (e *InputError) Unwrap() error { return e.Err }

// UserError marks the error as the person's to fix: the CLI exits 2.
func (e *InputError) UserError() {}

// IsInput reports whether err is an *InputError.
func IsInput(err error) bool {
	var ie *InputError
	return errors.As(err, &ie)
}

// Read reads every memory of source path as kind. Memories and files it
// passed over are in the skips, with the reason.
func Read(kind Kind, path string) ([]Memory, []Skip, error) {
	var r reader
	switch kind {
	case Claude:
		r = readClaude
	case Gemini:
		r = readGemini
	case MCPMemory:
		r = readMCPMemory
	case BasicMemory:
		r = readBasicMemory
	case Mem0:
		r = readMem0
	case ClaudeMem:
		r = readClaudeMem
	default:
		return nil, nil, &InputError{Msg: fmt.Sprintf("unknown source kind %q", kind)}
	}
	mems, skips, err := r(path)
	if err != nil {
		return nil, nil, err
	}
	if len(mems) > MaxMemories {
		return nil, nil, &InputError{Msg: fmt.Sprintf("%s holds %d memories, over the limit of %d for one import: import part of it", path, len(mems), MaxMemories)}
	}
	return mems, skips, nil
}

// reader reads one kind of source.
type reader func(path string) ([]Memory, []Skip, error)
