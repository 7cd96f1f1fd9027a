package viewer

import (
	"sync"
	"time"
)

// cacheFor is how long a page's data stays good when the directory's
// quick stamp has not moved. The quick stamp catches every write memdir
// makes at once; a topic edited in place by another program shows after
// cacheFor at most.
const cacheFor = 10 * time.Second

// pageCache keeps the data of the pages that read every topic (stream,
// stats) between two changes to memory: at 10,000 topics a fresh read is
// hundreds of milliseconds, a cached one nothing.
type pageCache struct {
	mu      sync.Mutex
	entries map[string]cached
}

type cached struct {
	stamp uint64
	at    time.Time
	value any
}

// get returns the value under key while dir's quick stamp is unchanged
// and the value is younger than cacheFor; else it computes it with fill
// and keeps it unless fill failed.
func (c *pageCache) get(key, dir string, today time.Time, fill func() (any, error)) (any, error) {
	st := quickStamp(dir, today)
	now := time.Now()
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok && e.stamp == st && now.Sub(e.at) < cacheFor {
		return e.value, nil
	}
	v, err := fill()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[string]cached{}
	}
	c.entries[key] = cached{stamp: st, at: now, value: v}
	c.mu.Unlock()
	return v, nil
}
