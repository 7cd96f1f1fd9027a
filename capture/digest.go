package capture

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/secrets"
)

// Caps keep a digest compact: the dream reads it, not a person.
const (
	maxPrompts  = 20
	maxFiles    = 30
	maxCommands = 20
	maxErrors   = 10
	maxItem     = 200 // runes per prompt, command or error
)

// Digest renders a session as the text of one log entry. Text inside
// <private>...</private> goes first; an item that still looks like a
// credential is dropped, and the digest says how many were. It returns ""
// when the session has nothing to tell.
func Digest(s Session, sessionID string) string {
	dropped := 0
	clean := func(items []string, keepLast int) []string {
		var out []string
		for _, it := range items {
			it = strings.Join(strings.Fields(memdir.StripPrivate(it)), " ")
			if it == "" {
				continue
			}
			if len(secrets.Scan(it)) > 0 {
				dropped++
				continue
			}
			out = append(out, cut(it, maxItem))
		}
		if len(out) > keepLast {
			out = append([]string{fmt.Sprintf("(%d earlier ones left out)", len(out)-keepLast)}, out[len(out)-keepLast:]...)
		}
		return out
	}
	prompts := clean(s.Prompts, maxPrompts)
	files := clean(s.Files, maxFiles)
	commands := clean(s.Commands, maxCommands)
	errs := clean(s.Errors, maxErrors)
	if len(prompts)+len(files)+len(commands)+len(errs) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "What happened in session %s, for the next dream.\n", short(sessionID))
	section := func(title string, items []string) {
		if len(items) == 0 {
			return
		}
		b.WriteString(title + ":\n")
		for _, it := range items {
			b.WriteString("- " + it + "\n")
		}
	}
	section("Prompts", prompts)
	section("Files edited", files)
	section("Commands", commands)
	section("Errors", errs)
	if dropped > 0 {
		fmt.Fprintf(&b, "(%d item(s) left out: they looked like credentials.)\n", dropped)
	}
	return strings.TrimRight(b.String(), "\n")
}

// cut shortens s to n runes, marking the cut.
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// short is the first 8 characters of a session id.
func short(id string) string {
	if r := []rune(id); len(r) > 8 {
		return string(r[:8])
	}
	if id == "" {
		return "unknown"
	}
	return id
}

// DigestTitle names the log entry of a session's digest.
func DigestTitle(sessionID string) string {
	return "Session digest " + short(sessionID)
}

// Offsets remembers how far each session's transcript has been digested,
// so that a digest before compaction and another at the end of the session
// never repeat each other. It lives in the memory directory's private
// state (.memdir/capture/), which is never committed and may be deleted.
type Offsets struct{ Dir string }

// NewOffsets keeps offsets under memDir.
func NewOffsets(memDir string) Offsets {
	return Offsets{Dir: filepath.Join(memDir, memdir.StateDir, "capture")}
}

func (o Offsets) file(sessionID, transcript string) string {
	sum := sha256.Sum256([]byte(sessionID + "\x00" + transcript))
	return filepath.Join(o.Dir, hex.EncodeToString(sum[:8]))
}

// Get returns the offset digested so far (0 when unknown).
func (o Offsets) Get(sessionID, transcript string) int64 {
	data, err := os.ReadFile(o.file(sessionID, transcript))
	if err != nil {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// Set records the offset digested so far.
func (o Offsets) Set(sessionID, transcript string, n int64) error {
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return fmt.Errorf("capture state: %w", err)
	}
	return atomicfile.WriteFile(o.file(sessionID, transcript), []byte(strconv.FormatInt(n, 10)+"\n"), 0o644)
}
