package memdir

import "time"

// TopicView is a topic as read commands and the MCP tools print it in
// JSON: the frontmatter fields, with the body only when asked for.
type TopicView struct {
	File        string     `json:"file" jsonschema:"the topic file, relative to the memory directory"`
	Name        string     `json:"name"`
	Description string     `json:"description"`
	Type        string     `json:"type"`
	Created     *time.Time `json:"created,omitempty"`
	Modified    *time.Time `json:"modified,omitempty"`
	Private     bool       `json:"private,omitempty" jsonschema:"kept out of the index and default search results"`
	Expires     string     `json:"expires,omitempty" jsonschema:"the date after which this project fact is stale"`
	Tags        []string   `json:"tags,omitempty"`
	Body        string     `json:"body,omitempty"`
}

// View returns the topic as a TopicView, with its body when body is true.
func (t *Topic) View(body bool) TopicView {
	v := TopicView{File: t.File, Name: t.Name, Description: t.Description, Type: string(t.Type),
		Private: t.Private, Expires: t.Expires, Tags: t.Tags}
	if !t.Created.IsZero() {
		v.Created = &t.Created
	}
	if !t.Modified.IsZero() {
		v.Modified = &t.Modified
	}
	if body {
		v.Body = t.Body
	}
	return v
}
