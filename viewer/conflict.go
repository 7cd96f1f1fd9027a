package viewer

import (
	"net/http"
	"strings"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/memdir"
)

// conflict is a conflict copy (memdir.ConflictCopy): the other side's
// version of a topic that a sync or git pull could not merge. The viewer
// shows it as a conflict on its topic, never as a memory of its own.
type conflict struct {
	Copy  string // the copy's file
	Topic string // the topic's file
}

// Resolve is the command that settles the conflict.
func (c conflict) Resolve() string { return "memdir resolve " + c.Topic + " --keep mine|theirs|both" }

// conflicts lists the memory directory's conflict copies, by name.
func conflicts(d *memdir.Dir) []conflict {
	var out []conflict
	for _, f := range d.ConflictCopies(nil) {
		if topic, ok := memdir.ConflictCopy(f.File); ok {
			out = append(out, conflict{Copy: f.File, Topic: topic})
		}
	}
	return out
}

// conflictsOf lists the conflict copies of one topic.
func conflictsOf(d *memdir.Dir, topic string) []conflict {
	var out []conflict
	for _, c := range conflicts(d) {
		if c.Topic == topic {
			out = append(out, c)
		}
	}
	return out
}

// conflictData is the page of a conflict copy.
type conflictData struct {
	conflict
	Body   string // the copy as text, up to renderMaxBytes
	Cut    bool   // Body is the start of a longer file
	Hidden bool   // a copy of a private topic, not asked to see
}

// conflictPage answers for a conflict copy: which topic it is a conflict
// for, the other side's text, and the command that resolves it.
func (s *Server) conflictPage(w http.ResponseWriter, pg *page, file, topic string) {
	d := pg.Project.Dir
	data, err := atomicfile.ReadInside(d.Path, file)
	if err != nil {
		s.fail(w, pg, statusOf(err), err)
		return
	}
	cd := &conflictData{conflict: conflict{Copy: file, Topic: topic}}
	pg.Title, pg.Data, pg.Live = "conflict: "+topic, cd, true
	if t, err := memdir.ParseTopic(file, data); (err != nil || t.Private) && !pg.Private {
		cd.Hidden = true
	} else {
		cd.Cut = len(data) > renderMaxBytes
		cd.Body = strings.ToValidUTF8(string(data[:min(len(data), renderMaxBytes)]), "\uFFFD")
	}
	s.tmpl.render(w, http.StatusOK, "conflict", "", pg)
}
