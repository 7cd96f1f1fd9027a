//go:build !linux

package dream

// lease is a no-op where read leases are not available: the guarded write
// alone protects an edit, with the window atomicfile documents.
type lease struct{}

func takeLease(dir, rel string) (*lease, error) { return nil, nil }

func (l *lease) release(dir, rel string, data []byte) error { return nil }
