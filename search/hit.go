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
func (ix *Index) hit(r ranked, pq *parsed, now time.Time) Hit {
	// Strings of the index point into its file's bytes: a hit gets
	// copies, so it does not keep the whole index alive.
	h := Hit{File: strings.Clone(r.src.path), Kind: kindTopic, Name: strings.Clone(r.d.name), Type: r.d.typ, Score: round3(r.score),
		Modified: time.Unix(r.d.modified, 0).UTC(), ExactName: r.tier == 0, Private: r.d.private,
		Expired: r.d.expires != "" && r.d.expires < now.Format(time.DateOnly)}
	data, _ := atomicfile.ReadInside(ix.dir.Path, r.src.path)
	if r.src.kind == srcLog {
		ix.logHit(&h, r, data, pq)
		return h
	}
	body := string(data)
	if t, err := memdir.ParseTopic(path.Base(r.src.path), data); err == nil {
		h.Description, h.Tags, body = t.Description, t.Tags, t.Body
	}
	h.Snippet = firstSnippet(pq, body, h.Description)
	if h.Snippet == "" {
		h.Snippet = TrimSnippet(cleanText(firstNonEmpty(h.Description, body)), SnippetRunes)
	}
	return h
}

// logHit fills in a log entry's day, number, line and text.
func (ix *Index) logHit(h *Hit, r ranked, data []byte, pq *parsed) {
	h.Kind, h.Day, h.Entry, h.Line = kindLog, strings.Clone(r.d.day), int(r.d.entry), int(r.d.line)
	h.Modified = time.Unix(r.d.modified, 0)
	entries, _ := dailylog.Parse(data, r.src.path)
	text := ""
	if i := int(r.d.entry) - 1; i >= 0 && i < len(entries) && entries[i].Hash == r.d.hash {
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
