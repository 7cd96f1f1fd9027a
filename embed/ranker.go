package embed

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/search"
)

// DefaultTimeout bounds a search's exchange with the server when the
// configuration gives none.
const DefaultTimeout = time.Second

// Ranker ranks the topics of one memory directory by meaning, one
// search at a time (concurrent calls wait their turn). A long-lived
// ranker (the MCP server's, the viewer's) keeps the vectors it last read
// or wrote, and reads the file again only when its stamp changed.
type Ranker struct {
	dir  *memdir.Dir
	cfg  Config
	warn io.Writer

	mu    sync.Mutex
	kept  *store           // the vectors as last read or written; nil: none
	stamp search.Stamp     // the file's stamp then; zero: read it again
	loads int              // reads of the file, for tests
	now   func() time.Time // the wall clock a stamp is judged racy by
}

// New returns the ranker of d's topics through the server cfg names.
// Trouble with the server is written to warn, one line per search.
func New(d *memdir.Dir, cfg Config, warn io.Writer) *Ranker {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	return &Ranker{dir: d, cfg: cfg, warn: warn, now: time.Now}
}

// Nearest returns the files of at most limit of topics nearest to text
// by meaning, nearest first. It embeds the topics that are new or changed
// first, as many as the timeout allows (the rest next time), and keeps
// their vectors. A topic whose stamp is the one kept with its vector is
// not read at all; one with a new stamp is read, and embedded again only
// when its text changed. Any trouble with the server gives no files and
// one line on the warning writer: the search answers from words alone.
func (r *Ranker) Nearest(ctx context.Context, text string, limit int, topics []search.Stamped) []search.Near {
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	r.mu.Lock()
	defer r.mu.Unlock()
	files, err := r.nearest(ctx, text, limit, topics)
	if err != nil {
		fmt.Fprintf(r.warn, "memdir: warning: embeddings: %v; results by words alone\n", err)
		return nil
	}
	return files
}

func (r *Ranker) nearest(ctx context.Context, text string, limit int, topics []search.Stamped) ([]search.Near, error) {
	// The kept vectors are read while the server embeds the question.
	loaded := make(chan *store, 1)
	go func() { loaded <- r.load() }()
	q, err := r.cfg.Embed(ctx, []string{text})
	st := <-loaded
	if err != nil {
		return nil, err
	}
	normalize(q[0])
	if st.dims != 0 && st.dims != len(q[0]) {
		st = &store{key: st.key, entries: map[string]entry{}}
	}
	st.dims = len(q[0])
	r.kept, r.stamp = nil, search.Stamp{} // update changes st: read it again unless it says otherwise
	err = r.update(ctx, st, topics)
	all := make([]search.Near, 0, len(st.entries))
	for f, e := range st.entries {
		all = append(all, search.Near{File: f, Score: dot(q[0], e.vec)})
	}
	slices.SortFunc(all, func(a, b search.Near) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.File, b.File)
	})
	return all[:min(limit, len(all))], err
}

// update embeds the topics whose text is not in the store, drops those
// not offered (gone, private, conflict copies), and saves the store when
// anything changed. A topic is read only when its stamp is not the one
// kept: a zero stamp vouches for nothing.
func (r *Ranker) update(ctx context.Context, st *store, topics []search.Stamped) error {
	var files, texts []string
	var hashes []textHash
	var stamps []search.Stamp
	changed := false
	kept := 0 // topics offered that have a vector
	for _, tp := range topics {
		e, ok := st.entries[tp.File]
		if ok {
			kept++
		}
		if ok && tp.Stamp != (search.Stamp{}) && e.stamp == tp.Stamp && len(e.vec) == st.dims {
			continue
		}
		t, err := r.dir.Read(tp.File)
		if err != nil || t.Private { // gone or made private since the index read it
			if ok {
				delete(st.entries, tp.File)
				kept--
				changed = true
			}
			continue
		}
		text := t.Name + "\n" + t.Description + "\n" + t.Body
		h := hashOf(text)
		if ok && e.hash == h && len(e.vec) == st.dims {
			if e.stamp != tp.Stamp {
				e.stamp = tp.Stamp
				st.entries[strings.Clone(tp.File)] = e // the key is replaced too: not the index's bytes
				changed = true
			}
			continue
		}
		file := strings.Clone(tp.File) // tp.File may point into the index
		files, texts, hashes, stamps = append(files, file), append(texts, text), append(hashes, h), append(stamps, tp.Stamp)
	}
	if kept < len(st.entries) { // some kept vector's topic was not offered
		offered := make(map[string]bool, len(topics))
		for _, tp := range topics {
			offered[tp.File] = true
		}
		for f := range st.entries {
			if !offered[f] {
				delete(st.entries, f)
				changed = true
			}
		}
	}
	vecs, embedErr := r.cfg.Embed(ctx, texts)
	for i, v := range vecs {
		if len(v) == st.dims {
			normalize(v)
			st.entries[files[i]] = entry{hash: hashes[i], stamp: stamps[i], vec: v}
			changed = true
		}
	}
	if changed {
		if err := st.save(r.dir.Path); err != nil {
			return err
		}
	}
	r.kept, r.stamp = st, r.fileStamp()
	return embedErr
}

// load returns the vectors kept for this model and server: those the
// ranker holds when the file's stamp is the one it had then, else the
// file's.
func (r *Ranker) load() *store {
	key := r.cfg.Model + " " + r.cfg.URL
	stamp := r.fileStamp()
	if r.kept != nil && r.kept.key == key && stamp != (search.Stamp{}) && stamp == r.stamp {
		return r.kept
	}
	r.loads++
	st := load(r.dir.Path, key)
	if st.dims == 0 { // nothing read: nothing to vouch for
		stamp = search.Stamp{}
	}
	r.kept, r.stamp = st, stamp
	return st
}

// fileStamp is the vectors file's stamp, zero when it is missing or was
// written too recently for its stamp to tell a later write apart.
func (r *Ranker) fileStamp() search.Stamp {
	root, err := atomicfile.OpenRoot(r.dir.Path)
	if err != nil {
		return search.Stamp{}
	}
	defer root.Close()
	size, mtime, ctime, ino, ok := root.Stamp(StateDir + "/" + storeFile)
	if !ok || atomicfile.Racy(mtime, ctime, r.now().UnixNano()) {
		return search.Stamp{}
	}
	return search.Stamp{Size: size, Mtime: mtime, Ctime: ctime, Ino: ino}
}

// normalize scales v to unit length (a zero vector stays zero), so that
// the cosine of two vectors is their dot product.
func normalize(v []float32) {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		return
	}
	k := float32(1 / math.Sqrt(n))
	for i := range v {
		v[i] *= k
	}
}

// dot is the cosine of two unit vectors, kept within [-1, 1] whatever a
// damaged vectors file holds.
func dot(a, b []float32) float64 {
	if len(b) < len(a) {
		return 0
	}
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return max(-1, min(1, float64(s0+s1+s2+s3)))
}
