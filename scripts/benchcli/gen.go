package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/memdir/memdir/memdir"
	corpus "github.com/memdir/memdir/memdir/memdirtest"
)

// runGen writes a memory directory holding n generated topics (see
// memdir/memdirtest) and the MEMORY.md that indexes them.
func runGen(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	n := fs.Int("n", 100, "number of topics")
	dir := fs.String("dir", "", "memory directory to create (must not exist)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" {
		return fmt.Errorf("gen: -dir is required")
	}
	if _, err := os.Stat(*dir); err == nil {
		return fmt.Errorf("gen: %s already exists", *dir)
	}
	d := memdir.Open(*dir, memdir.Live)
	if _, err := d.Init(); err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	if err := corpus.Write(*dir, *n, time.Date(2026, 11, 22, 10, 4, 5, 0, time.UTC)); err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	return nil
}
