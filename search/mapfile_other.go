//go:build !unix

package search

// mapFile cannot map here: index files are read.
func mapFile(string) ([]byte, bool) { return nil, false }
