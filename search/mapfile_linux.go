package search

import "golang.org/x/sys/unix"

// mapPopulate reads a mapping's pages in with the mmap call: one system
// call instead of a fault per page.
const mapPopulate = unix.MAP_POPULATE
