package search

import (
	"path"
	"runtime"
	"strings"
	"time"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/memdir"
)

// addFile indexes one source file's content: a topic is one document, a
// daily log one per entry. A topic file whose frontmatter does not parse
// is still searchable: its whole text is the body and its file name the
// name, since the files are the truth and a person may write them so; it
// is private when its broken frontmatter says so (memdir.SaysPrivate).
func (b *builder) addFile(s source, data []byte) {
	src := b.addSource(s)
	if s.kind == srcLog {
		b.addLog(src, s, data)
		return
	}
	var fields [numFields]string
	d := doc{docHead: docHead{src: src}}
	t, err := memdir.ParseTopic(path.Base(s.path), data)
	if err != nil {
		d.name = strings.TrimSuffix(path.Base(s.path), ".md")
		d.meta.unparsed = true
		d.private = memdir.SaysPrivate(data)
		d.modified = s.mtime / int64(time.Second)
		fields[fieldName], fields[fieldBody] = d.name, string(data)
		b.addDoc(d, &fields)
		return
	}
	d.typ, d.private, d.name, d.expires, d.tags = t.Type, t.Private, t.Name, t.Expires, t.Tags
	d.meta = topicMeta{desc: t.Description, created: stampText(t.Created), modified: stampText(t.Modified)}
	switch {
	case !t.Modified.IsZero():
		d.modified = t.Modified.Unix()
	case !t.Created.IsZero():
		d.modified = t.Created.Unix()
	default:
		d.modified = s.mtime / int64(time.Second)
	}
	fields = [numFields]string{t.Name, t.Description, strings.Join(t.Tags, " "), t.Body}
	b.addDoc(d, &fields)
}

// stampText is a frontmatter stamp as kept in the meta region: RFC 3339
// with its own offset, "" for none. stampTime reads it back.
func stampText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339Nano)
}

func stampTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

// addLog indexes every entry of a daily log.
func (b *builder) addLog(src uint32, s source, data []byte) {
	entries, _ := dailylog.Parse(data, s.path)
	for i, e := range entries {
		d := doc{docHead: docHead{src: src, typ: e.Type, entry: uint32(i + 1), line: uint32(e.Line),
			modified: entryTime(e).Unix()}, name: e.Title, hash: e.Hash, day: e.Date}
		fields := [numFields]string{fieldName: e.Title, fieldBody: e.Text}
		b.addDoc(d, &fields)
	}
}

// entryTime is when a log entry was written, in local time: its day and
// its time of day when it has one.
func entryTime(e dailylog.Entry) time.Time {
	if t, err := time.ParseInLocation("2006-01-02 15:04", e.Date+" "+e.Time, time.Local); err == nil && len(e.Time) == 5 {
		return t
	}
	if t, err := time.ParseInLocation("2006-01-02 15:04:05", e.Date+" "+e.Time, time.Local); err == nil {
		return t
	}
	t, _ := time.ParseInLocation(dailylog.DateLayout, e.Date, time.Local)
	return t
}

// readFiles reads the sources' files, several at a time, through the
// memory directory's root (atomicfile, the owner of untrusted reads: no
// symlink out of the directory, nothing but a regular file, a size cap).
// A file that cannot be read (it was removed since it was seen) is nil.
func readFiles(dir string, srcs []source) [][]byte {
	out := make([][]byte, len(srcs))
	root, err := atomicfile.OpenRoot(dir)
	if err != nil {
		return out
	}
	defer root.Close()
	workers := min(runtime.GOMAXPROCS(0)*2, len(srcs))
	parallel(workers, func(w int) {
		for i := w; i < len(srcs); i += workers {
			out[i], _ = root.ReadFile(srcs[i].path)
		}
	})
	return out
}
