package memdir

import "fmt"

// SecretError is why a memory was refused: its text holds what looks like
// a credential. Add returns it wrapped in an *InputError whose message
// speaks to a person at the command line; other front ends (the MCP tools)
// say it their own way.
type SecretError struct {
	Kind     string // what was seen, e.g. "GitHub token"
	Redacted string // the match with most of it masked
}

func (e *SecretError) Error() string {
	return fmt.Sprintf("the text contains what looks like a %s (%s): secrets never go into memory", e.Kind, e.Redacted)
}
