package dream

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memdir/memdir/internal/lazyre"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/secrets"
	"github.com/memdir/memdir/typesx"
)

// maxDescription is the longest description, in runes, an answer may give.
const maxDescription = 300

// fileRe is what a topic file name may look like: one path element,
// lowercase ASCII words, .md.
var fileRe = lazyre.New(`^[a-z0-9][a-z0-9_-]{0,80}\.md$`)

// validateAnswer checks an external distiller's answer against the
// snapshot and turns it into the topics to plan. Any problem refuses the
// whole answer.
func validateAnswer(ans *Answer, s *snapshot, p *planner) ([]*work, error) {
	current := map[string]int{}
	for i, t := range s.topics {
		current[t.File] = i
	}
	bad := func(format string, a ...any) error { return &AnswerError{Msg: fmt.Sprintf(format, a...)} }
	written := map[string]*memdir.Topic{}
	var order []string
	for i, tj := range ans.Topics {
		t, err := checkTopic(tj, s, current)
		if err != nil {
			return nil, bad("topics[%d] (%q): %v", i, tj.Name, err)
		}
		if written[t.File] != nil {
			return nil, bad("topics[%d]: %s is written twice", i, t.File)
		}
		written[t.File] = t
		order = append(order, t.File)
	}
	for i, f := range ans.Archive {
		if _, ok := current[f]; !ok {
			return nil, bad("archive[%d]: %q is not a topic file of this memory directory", i, f)
		}
		if written[f] != nil {
			return nil, bad("archive[%d]: %s is both written and archived", i, f)
		}
		p.archive[f] = true
	}
	for i, n := range ans.Notes {
		if found := secrets.Scan(n); len(found) > 0 {
			return nil, bad("notes[%d]: contains what looks like a %s (%s)", i, found[0].Kind, found[0].Redacted)
		}
	}
	p.rep.Notes = append(p.rep.Notes, ans.Notes...)
	var works []*work
	for _, t := range s.topics {
		if nt := written[t.File]; nt != nil {
			works = append(works, &work{t: nt, changed: true, stamp: true})
			continue
		}
		works = append(works, &work{t: t})
	}
	for _, f := range order {
		if _, ok := current[f]; !ok {
			works = append(works, &work{t: written[f], changed: true, created: true, stamp: true})
		}
	}
	return works, nil
}

// checkTopic validates one answered topic and returns it ready to write:
// an existing file keeps its other frontmatter keys and created stamp.
func checkTopic(tj TopicJSON, s *snapshot, current map[string]int) (*memdir.Topic, error) {
	typ, err := typesx.Parse(tj.Type)
	if err != nil {
		return nil, err
	}
	name := memdir.NormalizeName(tj.Name)
	if err := memdir.ValidateName(name); err != nil {
		return nil, err
	}
	desc := strings.TrimSpace(tj.Description)
	switch {
	case desc == "":
		return nil, fmt.Errorf("no description")
	case strings.ContainsAny(desc, "\n\r"):
		return nil, fmt.Errorf("the description must be one line")
	case utf8.RuneCountInString(desc) > maxDescription:
		return nil, fmt.Errorf("the description is over %d characters", maxDescription)
	}
	body := strings.TrimSpace(tj.Body)
	switch {
	case body == "":
		return nil, fmt.Errorf("no body")
	case len(body) > memdir.MaxBodyBytes:
		return nil, fmt.Errorf("the body is %d bytes, over the %d-byte cap", len(body), memdir.MaxBodyBytes)
	case strings.ContainsRune(body+name+desc, 0):
		return nil, fmt.Errorf("contains a NUL byte")
	}
	if found := secrets.Scan(name + "\n" + desc + "\n" + strings.Join(tj.Tags, "\n") + "\n" + body); len(found) > 0 {
		return nil, fmt.Errorf("contains what looks like a %s (%s)", found[0].Kind, found[0].Redacted)
	}
	if tj.Expires != "" && !validDate(tj.Expires) {
		return nil, fmt.Errorf("expires %q is not a date like 2026-12-01", tj.Expires)
	}
	file := tj.File
	if file == "" {
		file = memdir.FileName(typ, name)
	}
	_, exists := current[file]
	switch {
	case !fileRe().MatchString(file) || !memdir.IsTopicFile(file):
		return nil, fmt.Errorf("file %q is not a topic file name inside the memory directory (like %s)", file, memdir.FileName(typ, name))
	case !exists && !strings.HasPrefix(file, string(typ)+"_"):
		return nil, fmt.Errorf("new file %q must start with %q", file, string(typ)+"_")
	case containsStr(s.broken, file):
		return nil, fmt.Errorf("%s does not parse: fix it by hand first", file)
	}
	t := &memdir.Topic{File: file}
	if exists {
		fresh, err := memdir.ParseTopic(file, s.raw[file])
		if err != nil {
			return nil, err
		}
		t = fresh
	}
	t.Name, t.Description, t.Type, t.Body = name, desc, typ, body
	t.Expires, t.Private, t.Tags = tj.Expires, tj.Private, tj.Tags
	return t, nil
}

func validDate(s string) bool {
	if len(s) != 10 {
		return false
	}
	_, err := parseDay(s)
	return err == nil
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func parseDay(s string) (time.Time, error) { return time.Parse(time.DateOnly, s) }
