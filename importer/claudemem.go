package importer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// claude-mem (npm claude-mem 13.25.3, plugin/sqlite/SessionStore.js):
// observations in a SQLite database, ~/.claude-mem/claude-mem.db
// (CLAUDE_MEM_DATA_DIR moves it), table observations with project, type,
// title, subtitle, facts (a JSON list), narrative, text and
// created_at_epoch (milliseconds). One observation becomes one memory
// named by its title, tagged with its project and claude-mem's type.
//
// SQLite needs a reader: memdir has no SQLite library among its
// dependencies (the pure-Go one is a large module), so it asks the
// sqlite3 program, when it is installed, to print the observations as
// JSON: read-only, one fixed query, a bounded output and time. Without
// sqlite3 this source is refused with a note saying so.

// ClaudeMemQuery is the one query run against a claude-mem database.
const ClaudeMemQuery = "SELECT id, project, type, title, subtitle, facts, narrative, text, created_at_epoch FROM observations ORDER BY id LIMIT 50001;"

// maxDB caps the database file memdir hands to sqlite3.
const maxDB = 1 << 30

// Observation is one claude-mem observation.
type Observation struct {
	ID        int64   `json:"id"`
	Project   string  `json:"project"`
	Type      string  `json:"type"`
	Title     *string `json:"title"`
	Subtitle  *string `json:"subtitle"`
	Facts     *string `json:"facts"`
	Narrative *string `json:"narrative"`
	Text      *string `json:"text"`
	Epoch     int64   `json:"created_at_epoch"`
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return strings.TrimSpace(*p)
}

// ParseObservations reads sqlite3's -json output.
func ParseObservations(data []byte) ([]Observation, error) {
	var obs []Observation
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	if err := json.Unmarshal(data, &obs); err != nil {
		return nil, err
	}
	return obs, nil
}

// memory turns one observation into a memory; ok is false when it says
// nothing.
func (o Observation) memory(path string) (Memory, bool) {
	var b strings.Builder
	for _, s := range []string{str(o.Subtitle), str(o.Narrative), str(o.Text)} {
		if s != "" {
			b.WriteString(s + "\n\n")
		}
	}
	var facts []string
	if f := str(o.Facts); f != "" && json.Unmarshal([]byte(f), &facts) != nil {
		facts = []string{f}
	}
	for _, f := range facts {
		if f = strings.TrimSpace(f); f != "" {
			b.WriteString("- " + f + "\n")
		}
	}
	text := strings.TrimSpace(b.String())
	name := str(o.Title)
	if name == "" {
		name = nameOf(text)
	}
	m := Memory{Source: fmt.Sprintf("%s#%d", path, o.ID), Name: name, Text: text}
	for _, t := range []string{tag(o.Project), tag(o.Type)} {
		if t != "" {
			m.Tags = append(m.Tags, t)
		}
	}
	if o.Epoch > 0 {
		m.Date = time.UnixMilli(o.Epoch).UTC()
	}
	return m, text != "" && strings.TrimSpace(name) != ""
}

func readClaudeMem(path string) ([]Memory, []Skip, error) {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, nil, &InputError{Msg: fmt.Sprintf("read %s: %v", path, err), Err: err}
	case !fi.Mode().IsRegular() || fi.Size() > maxDB:
		return nil, nil, &InputError{Msg: fmt.Sprintf("%s is not a claude-mem database (not a regular file under %d bytes)", path, maxDB)}
	}
	prog, err := exec.LookPath("sqlite3")
	if err != nil {
		return nil, nil, &InputError{Msg: "claude-mem keeps its memory in SQLite, which memdir reads through the sqlite3 program: it is not on PATH (install sqlite3, then run the import again)"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, "-readonly", "-json", "-bail", "-batch", path, ClaudeMemQuery)
	cmd.Stdin = nil
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=/nonexistent"}
	var out, errb limitedBuffer
	out.max, errb.max = 256<<20, 4<<10
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if errors.Is(out.err, errTooMuch) {
			return nil, nil, &InputError{Msg: fmt.Sprintf("%s: the observations are over %d bytes", path, out.max)}
		}
		return nil, nil, &InputError{Msg: fmt.Sprintf("%s is not a claude-mem database sqlite3 can read: %s", path, strings.TrimSpace(errb.String())), Err: err}
	}
	obs, err := ParseObservations(out.Bytes())
	if err != nil {
		return nil, nil, &InputError{Msg: fmt.Sprintf("%s: sqlite3 printed what is not JSON: %v", path, err), Err: err}
	}
	var mems []Memory
	var skips []Skip
	for _, o := range obs {
		if m, ok := o.memory(path); ok {
			mems = append(mems, m)
		} else {
			skips = append(skips, Skip{Source: m.Source, Reason: "an observation with no text"})
		}
	}
	return mems, skips, nil
}

var errTooMuch = errors.New("output over its limit")

// limitedBuffer keeps at most max bytes and fails the write past them.
type limitedBuffer struct {
	bytes.Buffer
	max int
	err error
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.max {
		b.err = errTooMuch
		return 0, errTooMuch
	}
	return b.Buffer.Write(p)
}
