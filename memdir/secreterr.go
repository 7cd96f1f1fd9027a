package memdir

import (
	"fmt"
	"strings"

	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/secrets"
)

// SecretError is why a memory was refused: one of its fields holds what
// looks like a credential. Add returns it wrapped in an *InputError whose
// message speaks to a person at the command line; other front ends (the
// MCP tools) say it their own way.
type SecretError struct {
	Field    string // "name", "description", "tag", "why", "how"; "" for the text
	Kind     string // what was seen, e.g. "GitHub token"
	Redacted string // the match with most of it masked
}

func (e *SecretError) Error() string {
	field := e.Field
	if field == "" {
		field = "text"
	}
	return fmt.Sprintf("the %s contains what looks like %s (%s): secrets never go into memory", field, WithArticle(e.Kind), e.Redacted)
}

// scanSecrets refuses a request holding what secrets.Scan takes for a
// credential: in one of its fields, or in what an add writes from them
// (the fields together, the new topic file, its index entry). lint and
// commit scan those files with the same scanner, so they never refuse
// what add took. (Slugify sees to the file name; a log entry is scanned
// as it is appended.)
func (r *AddRequest) scanSecrets(body string) error {
	type field struct{ name, text string }
	// The text first: a name derived from it (capture) holds the same.
	fields := []field{{"", r.Text}, {"why", r.Why}, {"how", r.How}, {"description", r.Description}}
	for _, t := range r.Tags {
		fields = append(fields, field{"tag", t})
	}
	fields = append(fields, field{"name", r.Name},
		field{"", r.Name + "\n" + r.Description + "\n" + strings.Join(r.Tags, "\n") + "\n" + body})
	desc := r.Description
	if desc == "" {
		desc = Describe(r.Text)
	}
	file := FileName(r.Type, r.Name)
	t := &Topic{File: file, Name: r.Name, Description: desc, Type: r.Type, Private: r.Private, Tags: r.Tags, Body: body}
	if data, err := t.Marshal(); err == nil {
		fields = append(fields, field{"", string(data)})
	}
	fields = append(fields, field{"", index.FormatEntry(index.Entry{Title: r.Name, File: file, Hook: desc})})
	for _, f := range fields {
		if err := refuseSecret(f.name, f.text); err != nil {
			return err
		}
	}
	return nil
}

// refuseSecret returns the input error for the first credential in text,
// found in the named field ("" for the text), or nil.
func refuseSecret(field, text string) error {
	found := secrets.Scan(text)
	if len(found) == 0 {
		return nil
	}
	se := &SecretError{Field: field, Kind: found[0].Kind, Redacted: found[0].Redacted}
	return &InputError{Msg: se.Error() + "; remove it, or pass --allow-secret if it is not one", Err: se}
}
