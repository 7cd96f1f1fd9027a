package viewer

import (
	"encoding/binary"
	"fmt"
	"hash"
	"hash/fnv"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/memdir/memdir/dailylog"
)

// live tells open pages that memory changed. One poller per memory
// directory someone is looking at stats its files every poll interval and,
// when their stamp moves, wakes the pages' event streams. A poll reads no
// file and writes nothing; it runs only while a page listens.
//
// Why a poll and not the watch package: watch reconciles the index, a write
// a viewer must not make. Each poll stats the directory itself, MEMORY.md,
// today's daily log and the dream reports (quickStamp): every write memdir
// makes renames a file into the directory, which moves its mtime. Every
// fullEvery polls it also stats every entry (about 10 ms at 10,000 topics
// on an idle machine), which catches a topic someone edited in place.
type live struct {
	every time.Duration
	now   func() time.Time

	mu      sync.Mutex
	pollers map[string]*poller
	done    bool
}

type poller struct {
	subs map[chan struct{}]bool
	stop chan struct{}
}

func newLive(every time.Duration, now func() time.Time) *live {
	return &live{every: every, now: now, pollers: map[string]*poller{}}
}

// subscribe returns a channel that receives a value after each change to
// dir, and a function that ends the subscription. The channel is closed
// when the server stops.
func (l *live) subscribe(dir string) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done {
		close(ch)
		return ch, func() {}
	}
	p, ok := l.pollers[dir]
	if !ok {
		p = &poller{subs: map[chan struct{}]bool{}, stop: make(chan struct{})}
		l.pollers[dir] = p
		go l.poll(dir, p)
	}
	p.subs[ch] = true
	return ch, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if !p.subs[ch] {
			return
		}
		delete(p.subs, ch)
		if len(p.subs) == 0 {
			close(p.stop)
			delete(l.pollers, dir)
		}
	}
}

func (l *live) poll(dir string, p *poller) {
	t := time.NewTicker(l.every)
	defer t.Stop()
	quick, full := quickStamp(dir, l.now()), fullStamp(dir)
	for n := 1; ; n++ {
		select {
		case <-p.stop:
			return
		case <-t.C:
		}
		q := quickStamp(dir, l.now())
		changed := q != quick
		quick = q
		if n%fullEvery == 0 || changed {
			f := fullStamp(dir)
			changed = changed || f != full
			full = f
		}
		if !changed {
			continue
		}
		l.mu.Lock()
		for ch := range p.subs {
			select {
			case ch <- struct{}{}:
			default: // a wake-up is already waiting
			}
		}
		l.mu.Unlock()
	}
}

// stop closes every subscription.
func (l *live) stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done {
		return
	}
	l.done = true
	for dir, p := range l.pollers {
		for ch := range p.subs {
			close(ch)
		}
		p.subs = nil
		close(p.stop)
		delete(l.pollers, dir)
	}
}

// fullEvery is how many polls go between two full stamps.
const fullEvery = 20

// quickStamp sums up what every memdir write moves: the directory's own
// modification time (a rename into it), MEMORY.md, today's daily log and
// the dream reports' directory. A handful of stats.
func quickStamp(dir string, now time.Time) uint64 {
	h := fnv.New64a()
	for _, p := range []string{dir, filepath.Join(dir, "MEMORY.md"), dailylog.Path(dir, now), filepath.Join(dir, dreamReports)} {
		if fi, err := os.Lstat(p); err == nil {
			addStamp(h, p, fi)
		}
	}
	return h.Sum64()
}

// fullStamp sums up the name, size and modification time of every entry
// at the top of the directory: topics edited in place move it too.
func fullStamp(dir string) uint64 {
	h := fnv.New64a()
	f, err := os.Open(dir)
	if err != nil {
		return 0
	}
	ents, _ := f.ReadDir(-1)
	_ = f.Close()
	for _, e := range ents {
		if fi, err := e.Info(); err == nil {
			addStamp(h, e.Name(), fi)
		}
	}
	return h.Sum64()
}

func addStamp(h hash.Hash64, name string, fi os.FileInfo) {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], uint64(fi.Size()))
	binary.LittleEndian.PutUint64(b[8:], uint64(fi.ModTime().UnixNano()))
	_, _ = h.Write([]byte(name))
	_, _ = h.Write(b[:])
}

// events streams a "change" event to the page each time its project's
// memory changes.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	p, _, err := s.project(r.PathValue("id"))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	ch, end := s.live.subscribe(p.Dir.Path)
	defer end()
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprint(w, "retry: 2000\n: listening\n\n")
	fl.Flush()
	keep := time.NewTicker(15 * time.Second)
	defer keep.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case _, open := <-ch:
			if !open {
				return
			}
			fmt.Fprint(w, "data: change\n\n")
		case <-keep.C:
			fmt.Fprint(w, ": still here\n\n")
		}
		fl.Flush()
	}
}
