package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/memdir/memdir/internal/fakeembed"
)

// TestMCPSearchFusesEmbeddings: with embeddings.url in the user's
// settings, memory_search fuses the embedding server's ranking with its
// words, so a paraphrase no word of which is in the memory finds it; with
// the server gone, the search still answers, by words alone.
func TestMCPSearchFusesEmbeddings(t *testing.T) {
	srv := fakeembed.Start()
	e := newMCPEnv(t)
	e.run("", "add", "project", "Billing service owner", "Priya Natarajan owns the billing service. Escalate payment failures to Priya.")
	e.run("", "add", "project", "Kafka topic naming", "Topics use team.domain.event.")
	cfg := "embeddings:\n  url: " + srv.URL + "\n  model: m1\n"
	if err := os.WriteFile(filepath.Join(e.home, ".memdir", "config.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t)
	question := map[string]any{"query": "who is responsible for invoices"}
	cs := e.connect(ctx, nil, nil, "")
	res := callOK[searchResult](t, ctx, cs, "memory_search", question)
	if got := res.files(); len(got) == 0 || got[0] != "project_billing_service_owner.md" {
		t.Fatalf("search %q with embeddings = %v, want the billing owner first", question["query"], got)
	}
	cs.Close()

	srv.Close()
	cs = e.connect(ctx, nil, nil, "")
	res = callOK[searchResult](t, ctx, cs, "memory_search", map[string]any{"query": "billing"})
	if got := res.files(); len(got) != 1 || got[0] != "project_billing_service_owner.md" {
		t.Errorf("search billing with the server gone = %v, want the words' own answer", got)
	}
	if r := callOK[searchResult](t, ctx, cs, "memory_search", question); len(r.Results) != 0 {
		t.Errorf("search %q with the server gone = %v, want nothing: words alone miss it", question["query"], r.files())
	}
}
