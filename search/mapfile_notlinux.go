//go:build unix && !linux

package search

// mapPopulate is Linux's alone: elsewhere pages fault in as they are read.
const mapPopulate = 0
