package dream

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/secrets"
	"github.com/memdir/memdir/typesx"
)

// ProtocolVersion is the version of the external distiller protocol.
const ProtocolVersion = 1

// Request is what an external distiller reads on its standard input.
type Request struct {
	Version   int            `json:"version"`
	Now       time.Time      `json:"now"`
	Dir       string         `json:"dir"`
	Types     []TypeInfo     `json:"types"`
	TypeRules []typeRule     `json:"type_rules"`
	Limits    Limits         `json:"limits"`
	Entries   []RequestEntry `json:"entries"`
	Topics    []TopicJSON    `json:"topics"`
}

// TypeInfo is one memory type and what it holds.
type TypeInfo struct {
	Name    string `json:"name"`
	Meaning string `json:"meaning"`
}

// Limits are the caps memdir enforces on an answer.
type Limits struct {
	MaxBodyBytes   int `json:"max_body_bytes"`
	MaxNameRunes   int `json:"max_name_runes"`
	MaxDescription int `json:"max_description_runes"`
	IndexLines     int `json:"index_lines"`
	IndexBytes     int `json:"index_bytes"`
}

// RequestEntry is one log entry to distil, its relative dates already
// made absolute.
type RequestEntry struct {
	ID    string `json:"id"`
	Date  string `json:"date"`
	Time  string `json:"time,omitempty"`
	Type  string `json:"type,omitempty"`
	Title string `json:"title,omitempty"`
	Text  string `json:"text"`
}

// TopicJSON is a topic in the protocol, both ways. In an answer, file
// may be empty for a new topic (memdir names it <type>_<slug>.md);
// created and modified are ignored (memdir stamps them).
type TopicJSON struct {
	File        string    `json:"file"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Type        string    `json:"type"`
	Created     time.Time `json:"created,omitzero"`
	Modified    time.Time `json:"modified,omitzero"`
	Expires     string    `json:"expires,omitempty"`
	Private     bool      `json:"private,omitempty"`
	Tags        []string  `json:"tags,omitempty"`
	Body        string    `json:"body"`
}

// Answer is what an external distiller prints on its standard output:
// the topics to write (whole, new or replacing the file of the same
// name) and the topic files to move to archive/. Topics it does not
// mention stay as they are; every entry of the request counts as
// distilled once the answer is applied.
type Answer struct {
	Topics  []TopicJSON `json:"topics"`
	Archive []string    `json:"archive"`
	Notes   []string    `json:"notes,omitempty"`
}

// AnswerError is an external distiller's answer memdir refused; nothing
// was written.
type AnswerError struct{ Msg string }

func (e *AnswerError) Error() string {
	return "the distiller's answer was refused, nothing was changed: " + e.Msg
}

// distillExternal runs the external distiller without the sidecar lock,
// validates its answer, takes the lock again and plans the answer if the
// memory did not change meanwhile.
func distillExternal(ctx context.Context, opts *Options, s *snapshot, p *planner, lk **memdir.Lock) error {
	req := buildRequest(s, p)
	before := s.fingerprint()
	if lk != nil {
		_ = (*lk).Release()
	}
	ans, err := callDistiller(ctx, opts, req)
	if lk != nil {
		l, lerr := opts.Dir.Lock("dream")
		if lerr != nil {
			return lerr
		}
		*lk = l
	}
	if err != nil {
		return err
	}
	now, err := gather(opts.Dir)
	if err != nil {
		return err
	}
	if now.fingerprint() != before {
		return fmt.Errorf("the topics or MEMORY.md changed while the distiller ran: run dream again")
	}
	// The same bytes, maybe written again: guard the writes with what is
	// on disk now.
	s.stamps = now.stamps
	works, err := validateAnswer(ans, s, p)
	if err != nil {
		return err
	}
	return p.plan(works, s.entries)
}

// buildRequest makes the request and rewrites relative dates; entries
// that look like secrets are left out (and reported).
func buildRequest(s *snapshot, p *planner) *Request {
	req := &Request{Version: ProtocolVersion, Now: p.now, Dir: p.d.Path, TypeRules: TypeRules,
		Limits:  Limits{MaxBodyBytes: memdir.MaxBodyBytes, MaxNameRunes: memdir.MaxNameLen, MaxDescription: maxDescription, IndexLines: 200, IndexBytes: 25000},
		Entries: []RequestEntry{}, Topics: []TopicJSON{}}
	for _, t := range typesx.Types {
		req.Types = append(req.Types, TypeInfo{Name: string(t), Meaning: t.Meaning()})
	}
	b := &builtin{rep: p.rep}
	for _, e := range s.entries {
		ref := entryRef(e)
		if found := secrets.Scan(e.Title + "\n" + e.Text); len(found) > 0 {
			p.rep.Skipped = append(p.rep.Skipped, Skipped{Entry: ref, Reason: "looks like a " + found[0].Kind + "; secrets never go into memory"})
			continue
		}
		at := entryTime(e, p.now.Location())
		req.Entries = append(req.Entries, RequestEntry{ID: e.ID, Date: e.Date, Time: e.Time, Type: string(e.Type),
			Title: b.rewrite(ref, e.Title, at), Text: b.rewrite(ref, e.Text, at)})
	}
	for _, t := range s.topics {
		req.Topics = append(req.Topics, topicJSON(t))
	}
	return req
}

func topicJSON(t *memdir.Topic) TopicJSON {
	return TopicJSON{File: t.File, Name: t.Name, Description: t.Description, Type: string(t.Type),
		Created: t.Created, Modified: t.Modified, Expires: t.Expires, Private: t.Private, Tags: t.Tags, Body: t.Body}
}

// callDistiller runs the command with the request on stdin and decodes its
// answer from stdout: one JSON object, nothing after it but white space.
func callDistiller(ctx context.Context, opts *Options, req *Request) (*Answer, error) {
	argv, err := SplitCommand(opts.Distiller)
	if err != nil || len(argv) == 0 {
		return nil, &memdir.InputError{Msg: fmt.Sprintf("dream.distiller %q is not a command line: %v", opts.Distiller, err)}
	}
	in, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encode distiller request: %w", err)
	}
	r := &distillerRun{argv: argv, dir: opts.Dir.Path, env: append(os.Environ(), "MEMDIR_DREAM_DIR="+opts.Dir.Path),
		stdin: in, timeout: opts.DistillerTimeout, stderr: opts.Stderr}
	out, err := r.run(ctx)
	if err != nil {
		return nil, err
	}
	return decodeAnswer(out)
}

// decodeAnswer parses an answer strictly: known fields only, and nothing
// but white space after the object (a second object or a stray line would
// otherwise be ignored silently).
func decodeAnswer(out []byte) (*Answer, error) {
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	var ans Answer
	if err := dec.Decode(&ans); err != nil {
		return nil, &AnswerError{Msg: fmt.Sprintf("not a JSON answer: %v", err)}
	}
	if rest := bytes.TrimSpace(out[dec.InputOffset():]); len(rest) > 0 {
		return nil, &AnswerError{Msg: fmt.Sprintf("trailing data after the JSON answer: %q", short(string(rest), 40))}
	}
	return &ans, nil
}
