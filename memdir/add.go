package memdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/typesx"
)

// AddRequest is one memory to record.
type AddRequest struct {
	Type        typesx.Type
	Name        string
	Text        string
	Description string // derived from Text when empty
	Why, How    string // optional "Why:" and "How to apply:" lines
	Private     bool
	Tags        []string
	New         bool   // never merge into an existing topic
	AllowSecret bool   // record text that looks like a credential
	Expires     string // YYYY-MM-DD: the fact goes stale on that date (project facts)

	// checked is a copy of the request as Validate last accepted it: Add
	// validates again only a request that differs from it, so a request
	// a front end validated first (to refuse bad input before it touches
	// the disk) is validated, and scanned for secrets, once.
	checked *AddRequest
}

// Action says what an add did.
type Action string

// The outcomes of an add.
const (
	Created   Action = "created"
	Updated   Action = "updated"
	Unchanged Action = "unchanged"
	Logged    Action = "logged"
)

// AddResult says what an add did and what the index now looks like.
type AddResult struct {
	Action       Action      `json:"action"`
	File         string      `json:"file,omitempty"`    // topic file (live mode)
	Log          string      `json:"log,omitempty"`     // daily log (log mode)
	MatchedBy    string      `json:"matched,omitempty"` // "name", "spelling" or "similar" when an existing topic was updated
	Type         typesx.Type `json:"type"`
	Name         string      `json:"name"`          // the topic's own name (a similar topic keeps it); the entry's title in log mode
	IndexUpdated bool        `json:"index_updated"` // MEMORY.md or an overflow index was rewritten (never in log mode)
	// ListedIn is the overflow index that lists the topic when MEMORY.md,
	// at its load caps, does not (as `index --fit` places it); "" when
	// MEMORY.md lists it, or for a private topic or log mode.
	ListedIn string         `json:"listed_in,omitempty"`
	Pressure index.Pressure `json:"-"`
	Warning  string         `json:"warning,omitempty"` // index pressure message, if any
}

// Where says, for a person, where the topic's index line went when it is
// not in MEMORY.md; "" when it is.
func (r AddResult) Where() string {
	if r.ListedIn == "" {
		return ""
	}
	return "listed in " + r.ListedIn + ": MEMORY.md is at its load caps, so agents find it through that index"
}

// Body renders the text of a memory with its optional why and how lines.
func (r AddRequest) Body() string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(r.Text))
	if r.Why != "" || r.How != "" {
		b.WriteString("\n")
	}
	if r.Why != "" {
		b.WriteString("\n**Why:** " + strings.TrimSpace(r.Why))
	}
	if r.How != "" {
		b.WriteString("\n**How to apply:** " + strings.TrimSpace(r.How))
	}
	return strings.TrimSpace(b.String())
}

// Validate checks a request without touching the disk: a valid type and
// name, some text, a body within limits and no credentials. It first drops
// every <private>...</private> span from the request (StripPrivate): what
// is left is all that can be stored. It normalises the name (trimmed, NFC)
// and the description (on one line).
func (r *AddRequest) Validate() error {
	before := r.Body()
	r.checked = nil
	r.stripPrivate()
	r.Description = strings.Join(strings.Fields(r.Description), " ")
	if !r.Type.Valid() {
		return &InputError{Msg: (&typesx.UnknownTypeError{Name: string(r.Type)}).Error()}
	}
	if err := r.checkText(); err != nil {
		return err
	}
	if err := ValidateName(r.Name); err != nil {
		return err
	}
	body := r.Body()
	if body == "" && before != "" {
		return &InputError{Msg: "all of the text is inside <private>...</private>, which is never stored: nothing to remember"}
	}
	if body == "" {
		return &InputError{Msg: "the memory has no text: give it as arguments, with -f FILE, or with -f - on standard input"}
	}
	if len(body) > MaxBodyBytes {
		return &InputError{Msg: fmt.Sprintf("the text is %d bytes, over the %d-byte limit for one topic: split it into several topics, one fact each", len(body), MaxBodyBytes)}
	}
	if strings.ContainsRune(body, 0) {
		return &InputError{Msg: "the text contains a NUL byte: memory is plain text"}
	}
	if r.Expires != "" {
		e, err := parseDate(r.Expires)
		if err != nil || e != strings.TrimSpace(r.Expires) {
			return &InputError{Msg: fmt.Sprintf("expires %q is not a date like 2026-12-01", r.Expires)}
		}
		r.Expires = e
	}
	for _, tag := range r.Tags {
		if strings.TrimSpace(tag) == "" || strings.IndexFunc(tag, unicode.IsControl) >= 0 || strings.ContainsAny(tag, ",[]") {
			return &InputError{Msg: fmt.Sprintf("the tag %q is not a tag: use a short word without commas, brackets or line breaks", tag)}
		}
	}
	if !r.AllowSecret {
		if err := r.scanSecrets(body); err != nil {
			return err
		}
	}
	c := *r
	c.Tags = slices.Clone(r.Tags)
	r.checked = &c
	return nil
}

// valid reports whether Validate accepted the request as it is now.
func (r *AddRequest) valid() bool {
	c := r.checked
	return c != nil && c.Type == r.Type && c.Name == r.Name && c.Text == r.Text &&
		c.Description == r.Description && c.Why == r.Why && c.How == r.How &&
		c.Private == r.Private && slices.Equal(c.Tags, r.Tags) && c.New == r.New &&
		c.AllowSecret == r.AllowSecret && c.Expires == r.Expires
}

// validateTopic applies add's limits to a topic written another way (an
// edit, a restore): a name that is a title, not a path, and a body within
// the size limit.
func validateTopic(t *Topic) error {
	if err := ValidateName(t.Name); err != nil {
		return err
	}
	if err := checkTopicText(t); err != nil {
		return err
	}
	if len(t.Body) > MaxBodyBytes {
		return &InputError{Msg: fmt.Sprintf("the text is %d bytes, over the %d-byte limit for one topic: split it into several topics, one fact each", len(t.Body), MaxBodyBytes)}
	}
	return nil
}

// Add records a memory. In live mode it writes or updates the topic file
// and MEMORY.md; in log mode it appends one entry to today's log.
func (d *Dir) Add(req AddRequest) (AddResult, error) {
	if !req.valid() {
		if err := req.Validate(); err != nil {
			return AddResult{}, err
		}
	}
	if d.Mode == Log && !req.Private {
		// A daily log entry is a type, a name and text: what else was
		// asked for would be lost on the way to the dream.
		if req.Description != "" || len(req.Tags) > 0 || req.New || req.Expires != "" {
			return AddResult{}, &InputError{Msg: "-d, --tag, --expires and --new need live mode: in log mode the dream writes the topic; put the detail in the text"}
		}
		return d.appendLog(req)
	}
	// A private memory goes straight to its topic file even in log mode:
	// it never enters the index, and the log would lose that it is private.
	return d.addLive(req)
}

func (d *Dir) newTopic(req AddRequest) *Topic {
	now := d.now()
	desc := req.Description
	if desc == "" {
		desc = Describe(req.Text)
	}
	return &Topic{
		Name: req.Name, Description: desc, Type: req.Type,
		Created: now, Modified: now,
		Private: req.Private, Tags: req.Tags, Body: req.Body(), Expires: req.Expires,
	}
}

// bestMatch finds, among index lines, the topic of req's type that has
// req's name, else one whose name is req's spelled another way
// (SameSubject), else the most similar one.
func bestMatch(m *matcher, lines []index.Line, req AddRequest, skip string) (file, how string, score float64) {
	for _, l := range lines {
		e := l.Entry
		// The type is in every file name that has it: a cheap test first.
		if e == nil || !strings.Contains(e.File, string(req.Type)) || e.Type() != req.Type || e.File == skip {
			continue
		}
		if strings.EqualFold(e.Title, req.Name) {
			// A topic whose file name does not follow from its name.
			return e.File, "name", 1
		}
		if how == "spelling" {
			continue
		}
		if SameSubject(e.Title, req.Name) {
			// The same name spelled another way, or mistyped.
			file, how, score = e.File, "spelling", 1
			continue
		}
		if s, ok := m.similar(e.Title, e.Hook); ok && s > score {
			file, how, score = e.File, "similar", s
		}
	}
	return file, how, score
}

// freeName picks the file name for a new topic, numbering it when the
// plain name is taken.
func (d *Dir) freeName(t typesx.Type, name string) string {
	base := strings.TrimSuffix(FileName(t, name), ".md")
	file := base + ".md"
	for n := 2; ; n++ {
		if _, err := os.Lstat(filepath.Join(d.Path, file)); errors.Is(err, fs.ErrNotExist) {
			return file
		}
		file = fmt.Sprintf("%s_%d.md", base, n)
	}
}

// mergeInto folds req into an existing topic: new text is appended unless
// the topic already says it, or replaces the paragraph supersede says it
// replaces (and the description with it, when the description said what
// that paragraph said); tags are merged, an explicit description or
// expiry date replaces the old one. It reports whether anything changed.
func mergeInto(t *Topic, req AddRequest, now time.Time, supersede Supersede) bool {
	changed := false
	body := req.Body()
	if !strings.Contains(squash(t.Body), squash(body)) {
		t.Body = replaceOrAppend(t, body, supersede)
		changed = true
	}
	if req.Description != "" && req.Description != t.Description {
		t.Description = req.Description
		changed = true
	}
	if req.Expires != "" && req.Expires != t.Expires {
		t.Expires = req.Expires
		changed = true
	}
	if req.Private && !t.Private {
		t.Private = true
		changed = true
	}
	for _, tag := range req.Tags {
		if !contains(t.Tags, tag) {
			t.Tags = append(t.Tags, tag)
			changed = true
		}
	}
	if changed {
		t.Modified = now
	}
	return changed
}

// Supersede returns the index of the paragraph of a topic's paragraphs
// that fact replaces, or -1: the dream's rule, passed in by whoever opens
// the directory (the store does not import the distiller).
type Supersede func(topicName string, paras []string, fact string) int

// replaceOrAppend returns t's body with fact in it: in place of the
// paragraph it supersedes, else after the others. A description that
// summed up the replaced paragraph now sums up the fact.
func replaceOrAppend(t *Topic, fact string, supersede Supersede) string {
	var paras []string
	for _, p := range strings.Split(strings.TrimSpace(t.Body), "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			paras = append(paras, p)
		}
	}
	i := -1
	if supersede != nil {
		i = supersede(t.Name, paras, fact)
	}
	if i < 0 || i >= len(paras) {
		return strings.TrimRight(t.Body, "\n") + "\n\n" + fact
	}
	if squash(t.Description) == squash(Describe(paras[i])) {
		t.Description = Describe(fact)
	}
	paras = append(paras[:i], paras[i+1:]...)
	return strings.Join(append(paras, fact), "\n\n")
}

// squash normalises whitespace so that re-adding the same text with other
// line breaks is recognised as the same text.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
