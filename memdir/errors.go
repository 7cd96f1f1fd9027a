package memdir

import "errors"

// Sentinel errors.
var (
	// ErrNotFound means no topic matched a name or file.
	ErrNotFound = errors.New("no such topic")
	// ErrLocked means another process held the lock past the timeout.
	ErrLocked = errors.New("memory directory is locked")
	// ErrConflict means a topic changed under an edit.
	ErrConflict = errors.New("topic changed meanwhile")
	// ErrReadOnly means the memory directory may be read but not written
	// (Dir.ReadOnly says why).
	ErrReadOnly = errors.New("memory directory is read-only")
)

// InputError is bad input from the user: nothing was written, and the
// message says what was wrong and what to do. The CLI exits 2 on it.
type InputError struct {
	Msg string
	Err error
}

func (e *InputError) Error() string { return e.Msg }

// Unwrap returns the underlying error, if any.
func (e *InputError) Unwrap() error { return e.Err }

// UserError marks the error as the user's input, which the CLI maps to
// exit status 2.
func (e *InputError) UserError() {}

// IsInput reports whether err is, or wraps, an *InputError.
func IsInput(err error) bool {
	var ie *InputError
	return errors.As(err, &ie)
}
