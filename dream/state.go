package dream

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/distilled"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/untrusted"
)

// Paths of dream's state inside the memory directory.
const (
	stateDir    = memdir.StateDir + "/dream"
	statePath   = distilled.Path
	journalPath = stateDir + "/journal.json"
	reportsDir  = memdir.StateDir + "/dreams"
)

// journal is the intent record of one dream: every file operation it is
// about to make, with the final bytes. It is written atomically before
// the first change, replayed by the next dream if this one dies, and
// removed after the last change. Replaying it is idempotent: each write
// is skipped when the file already holds its bytes, each move when its
// source is gone, each removal when the file is gone.
type journal struct {
	Version int      `json:"version"`
	Message string   `json:"message"`
	Writes  []fileOp `json:"writes,omitempty"`
	Moves   []moveOp `json:"moves,omitempty"`
	Removes []string `json:"removes,omitempty"`
	// RemoveGuards holds each removed file as read (see fileOp.Guard).
	RemoveGuards map[string]*guard `json:"remove_guards,omitempty"`
	Last         []fileOp          `json:"last,omitempty"` // index, report and state, after the topics
	Paths        []string          `json:"paths"`          // what the change touched, for the committer
}

type fileOp struct {
	Path string `json:"path"`
	Data string `json:"data"`
	// Before is the digest of the file as the dream found it (absent when
	// it did not exist), so that a replay can tell a file the dream had
	// not reached yet from one someone changed after the crash.
	Before string `json:"before"`
	// Guard, for a file others edit (topics, the indexes), is the file
	// as the dream read it: the write refuses a file that is no longer
	// exactly that, so an edit the dream did not read is never lost.
	Guard *guard `json:"guard,omitempty"`
}

// guard is a file as read: an atomicfile.Stamp in the journal.
type guard struct {
	Exists bool      `json:"exists"`
	Size   int64     `json:"size"`
	Mtime  time.Time `json:"mtime"`
	Sum    string    `json:"sum"` // hex SHA-256 of the content
}

func guardOf(st atomicfile.Stamp) *guard {
	g := &guard{Exists: st.Exists, Size: st.Size, Mtime: st.ModTime}
	if st.Exists {
		g.Sum = hex.EncodeToString(st.Sum[:])
	}
	return g
}

// stamp turns the guard back into what atomicfile.WriteInside expects.
func (g *guard) stamp() *atomicfile.Stamp {
	st := &atomicfile.Stamp{Exists: g.Exists, Size: g.Size, ModTime: g.Mtime}
	if sum, err := hex.DecodeString(g.Sum); err == nil && len(sum) == len(st.Sum) {
		copy(st.Sum[:], sum)
	}
	return st
}

// digest is the guard's content digest in fileOp.Before's form.
func (g *guard) digest() string {
	if !g.Exists {
		return absent
	}
	return g.Sum
}

type moveOp struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// readJournal returns the journal a killed dream left, or nil.
func readJournal(dir string) (*journal, error) {
	data, err := atomicfile.ReadInside(dir, journalPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read dream journal: %w", err)
	}
	var j journal
	if err := json.Unmarshal(data, &j); err != nil {
		// The journal is written atomically, so a bad one was edited by
		// hand; nothing in it can be trusted.
		return nil, fmt.Errorf("%s is damaged (%v): remove it and run dream again", journalPath, err)
	}
	return &j, nil
}

// writeJournal records the intent before the first change.
func writeJournal(dir string, j *journal) error {
	if err := os.MkdirAll(filepath.Join(dir, stateDir), 0o755); err != nil {
		return fmt.Errorf("write dream journal: %w", err)
	}
	for _, ops := range [][]fileOp{j.Writes, j.Last} {
		for i := range ops {
			if g := ops[i].Guard; g != nil {
				ops[i].Before = g.digest() // as read, not as it may be by now
				continue
			}
			ops[i].Before = digestOf(filepath.Join(dir, filepath.FromSlash(ops[i].Path)))
		}
	}
	data, err := encodeJournal(j)
	if err != nil {
		return fmt.Errorf("encode dream journal: %w", err)
	}
	return atomicfile.WriteFile(filepath.Join(dir, journalPath), data, 0o644)
}

// encodeJournal is json.Marshal(j) with the topic writes first, each
// encoded on its own into one buffer sized for them all. The writes hold
// every topic's bytes: json.Marshal of the whole journal grows its buffer
// by doubling and then copies it, holding three to four times their size
// at once, which for 28,000 new topics made writing the journal the
// dream's peak of memory.
func encodeJournal(j *journal) ([]byte, error) {
	rest := *j
	rest.Writes = nil
	tail, err := json.Marshal(&rest)
	if err != nil || len(j.Writes) == 0 {
		return tail, err
	}
	size := len(tail) + len(`{"writes":[],`)
	for _, op := range j.Writes {
		size += len(op.Data) + len(op.Data)/8 + len(op.Path) + 256
	}
	buf := bytes.NewBuffer(make([]byte, 0, size))
	buf.WriteString(`{"writes":[`)
	for i, op := range j.Writes {
		data, err := json.Marshal(op)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(data)
	}
	buf.WriteString("],")
	buf.Write(tail[1:]) // the other fields, after tail's "{"
	return buf.Bytes(), nil
}

// absent is the digest of a file that does not exist.
const absent = "absent"

// digestOf is the SHA-256 of a file's content, or absent.
func digestOf(path string) string {
	data, err := untrusted.ReadFile(path, "", untrusted.MaxMemory)
	if err != nil {
		return absent
	}
	return digest(data)
}

// digest is the hex SHA-256 of data, as a fileOp's Before.
func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// conflict returns the first file of a leftover journal that someone
// changed after the crash: it holds neither what the dream found nor what
// it meant to write, nor a part of that (a topic write cut short by a
// power cut before the dream synced its topics). Finishing that journal
// would overwrite the change.
func conflict(dir string, j *journal) string {
	for i, ops := range [][]fileOp{j.Writes, j.Last} {
		mayTear := i == 0 // only the batched topic writes skip their own fsync
		for _, op := range ops {
			data, err := untrusted.ReadFile(filepath.Join(dir, filepath.FromSlash(op.Path)), "", untrusted.MaxMemory)
			cur := absent
			if err == nil {
				cur = digest(data)
			}
			if cur == op.Before || err == nil && (string(data) == op.Data || mayTear && torn(data, op.Data)) {
				continue
			}
			return op.Path
		}
	}
	return ""
}

// torn reports whether a file holding cur is a write of data cut short:
// what a power cut can leave of a file renamed into place before its
// content reached the disk.
func torn(cur []byte, data string) bool {
	return len(cur) < len(data) && data[:len(cur)] == string(cur)
}
