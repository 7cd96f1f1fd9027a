package embed

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/search"
)

// DefaultTimeout bounds a search's exchange with the server when the
// configuration gives none.
const DefaultTimeout = time.Second

// Ranker ranks the topics of one memory directory by meaning. It is
// meant for one search at a time.
type Ranker struct {
	dir  *memdir.Dir
	cfg  Config
	warn io.Writer
}

// New returns the ranker of d's topics through the server cfg names.
// Trouble with the server is written to warn, one line per search.
func New(d *memdir.Dir, cfg Config, warn io.Writer) *Ranker {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	return &Ranker{dir: d, cfg: cfg, warn: warn}
}

// Nearest returns the files of at most limit topics nearest to text by
// meaning, nearest first. It embeds the topics that are new or changed
// first, as many as the timeout allows (the rest next time), and keeps
// their vectors. Any trouble with the server gives no files and one line
// on the warning writer: the search answers from words alone.
func (r *Ranker) Nearest(ctx context.Context, text string, limit int) []search.Near {
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	files, err := r.nearest(ctx, text, limit)
	if err != nil {
		fmt.Fprintf(r.warn, "memdir: warning: embeddings: %v; results by words alone\n", err)
		return nil
	}
	return files
}

func (r *Ranker) nearest(ctx context.Context, text string, limit int) ([]search.Near, error) {
	q, err := r.cfg.Embed(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	st := load(r.dir.Path, r.cfg.Model+" "+r.cfg.URL)
	if st.dims != 0 && st.dims != len(q[0]) {
		st = &store{key: st.key, entries: map[string]entry{}}
	}
	st.dims = len(q[0])
	err = r.update(ctx, st)
	type scored struct {
		file string
		cos  float64
	}
	var all []scored
	for f, e := range st.entries {
		all = append(all, scored{f, cosine(q[0], e.vec)})
	}
	slices.SortFunc(all, func(a, b scored) int {
		if a.cos != b.cos {
			if a.cos > b.cos {
				return -1
			}
			return 1
		}
		if a.file < b.file {
			return -1
		}
		return 1
	})
	out := make([]search.Near, 0, min(limit, len(all)))
	for _, s := range all[:min(limit, len(all))] {
		out = append(out, search.Near{File: s.file, Score: s.cos})
	}
	return out, err
}

// update embeds the topics whose text is not in the store, drops those
// gone or private, and saves the store when anything changed.
func (r *Ranker) update(ctx context.Context, st *store) error {
	topics, _, err := r.dir.List()
	if err != nil {
		return err
	}
	keep := map[string]bool{}
	var files, texts []string
	var hashes []textHash
	for _, t := range topics {
		if t.Private { // conflict copies are not topics: List leaves them out
			continue
		}
		keep[t.File] = true
		text := t.Name + "\n" + t.Description + "\n" + t.Body
		h := hashOf(text)
		if e, ok := st.entries[t.File]; ok && e.hash == h && len(e.vec) == st.dims {
			continue
		}
		files, texts, hashes = append(files, t.File), append(texts, text), append(hashes, h)
	}
	changed := false
	for f := range st.entries {
		if !keep[f] {
			delete(st.entries, f)
			changed = true
		}
	}
	vecs, embedErr := r.cfg.Embed(ctx, texts)
	for i, v := range vecs {
		if len(v) == st.dims {
			st.entries[files[i]] = entry{hash: hashes[i], vec: v}
			changed = true
		}
	}
	if changed {
		if err := st.save(r.dir.Path); err != nil {
			return err
		}
	}
	return embedErr
}

func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range min(len(a), len(b)) {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
