package search

import (
	"math"
	"path"
	"strings"
	"time"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/memdir"
)

// hit reads a ranked document's file again for what a hit shows: the
// description, the tags and a snippet from the field that matched best.
// The file is read now, so the snippet is the file as it is.
func (ix *Index) hit(v *view, r ranked, pq *parsed, now time.Time) Hit {
	s, x := v.at(r.g)
	d := s.doc(x)
	src := s.source(int(d.src))
	// Strings of the index point into its file's bytes: a hit gets
	// copies, so it does not keep the whole index alive.
	h := Hit{File: strings.Clone(src.path), Kind: kindTopic, Name: strings.Clone(d.name), Type: d.typ, Score: round3(r.score),
		Modified: time.Unix(d.modified, 0).UTC(), ExactName: r.tier == 0, Private: d.private,
		Expired: d.expires != "" && d.expires < now.Format(time.DateOnly), Coverage: r.cover}
	data, _ := atomicfile.ReadInside(ix.dir.Path, src.path)
	if src.kind == srcLog {
		logHit(&h, &d, src.path, data, pq)
		return h
	}
	body := string(data)
	if t, err := memdir.ParseTopic(path.Base(src.path), data); err == nil {
		h.Description, h.Tags, body = t.Description, t.Tags, t.Body
	}
	h.Snippet = firstSnippet(pq, body, h.Description)
	if h.Snippet == "" {
		h.Snippet = TrimSnippet(cleanText(firstNonEmpty(h.Description, body)), SnippetRunes)
	}
	return h
}

// logHit fills in a log entry's day, number, line and text.
func logHit(h *Hit, d *doc, file string, data []byte, pq *parsed) {
	h.Kind, h.Day, h.Entry, h.Line = kindLog, strings.Clone(d.day), int(d.entry), int(d.line)
	h.Modified = time.Unix(d.modified, 0)
	entries, _ := dailylog.Parse(data, file)
	text := ""
	if i := int(d.entry) - 1; i >= 0 && i < len(entries) && entries[i].Hash == d.hash {
		text = entries[i].Text
	}
	if h.Name == "" {
		h.Name = TrimSnippet(cleanText(text), 48)
	}
	h.Snippet = firstSnippet(pq, text)
	if h.Snippet == "" {
		h.Snippet = TrimSnippet(cleanText(text), SnippetRunes)
	}
}

// firstSnippet is the snippet of the first text that holds a match. The
// name is never one: the row shows it already.
func firstSnippet(pq *parsed, texts ...string) string {
	for _, t := range texts {
		if s := snippet(t, pq, SnippetRunes); s != "" {
			return s
		}
	}
	return ""
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			return x
		}
	}
	return ""
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }
