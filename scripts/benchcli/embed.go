package main

import (
	"flag"
	"fmt"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/internal/fakeembed"
)

// runEmbed serves an embedding server on 127.0.0.1 (package fakeembed:
// Ollama's /api/embed and OpenAI's /v1/embeddings) with vectors of -dims
// dimensions made from each text's hash, a stand-in for a local model
// server as fast as it can answer; it writes the /api/embed URL to
// -url-file (or stdout) and serves until killed.
func runEmbed(args []string) error {
	fs := flag.NewFlagSet("embed", flag.ContinueOnError)
	dims := fs.Int("dims", 768, "dimensions of every vector")
	urlFile := fs.String("url-file", "", "write the server's URL here once it listens")
	if err := fs.Parse(args); err != nil {
		return err
	}
	srv := fakeembed.Start()
	srv.Dims = *dims
	url := srv.URL + "/api/embed\n"
	if *urlFile == "" {
		fmt.Print(url)
	} else {
		if err := atomicfile.WriteFile(*urlFile, []byte(url), 0o644); err != nil {
			return err
		}
	}
	select {}
}
