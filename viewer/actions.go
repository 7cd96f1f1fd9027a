package viewer

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/http"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memgit"
	"github.com/memdir/memdir/secrets"
)

// editData is the edit page: the file's text and what it was made from.
type editData struct {
	File string
	Text string
	Base string // SHA-256 of the content the text was made from
	Err  string
}

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func (s *Server) editForm(w http.ResponseWriter, r *http.Request) {
	pg, file, ok := s.startTopic(w, r)
	if !ok {
		return
	}
	data, err := s.readTopic(pg, file)
	if err != nil {
		s.fail(w, pg, statusOf(err), err)
		return
	}
	pg.Title, pg.Data = "edit "+file, &editData{File: file, Text: string(data), Base: sum(data)}
	s.tmpl.render(w, http.StatusOK, "edit", "", pg)
}

// readTopic reads a topic file the request names.
func (s *Server) readTopic(pg *page, file string) ([]byte, error) {
	return atomicfile.ReadInside(pg.Project.Dir.Path, file)
}

// edit saves an edited topic through the same steps as `memdir edit`: the
// secret scan, then Dir.Replace (validation, the lock, a fresh modified
// stamp, the index line) against the content the editor started from, so
// a change made meanwhile is never lost.
func (s *Server) edit(w http.ResponseWriter, r *http.Request) {
	pg, file, ok := s.startTopic(w, r)
	if !ok {
		return
	}
	orig, err := s.readTopic(pg, file)
	if err != nil {
		s.fail(w, pg, statusOf(err), err)
		return
	}
	edited := []byte(r.PostFormValue("text"))
	if !bytes.Contains(orig, []byte("\r\n")) {
		// Browsers send a textarea's lines ended with CRLF.
		edited = bytes.ReplaceAll(edited, []byte("\r\n"), []byte("\n"))
	}
	ed := &editData{File: file, Text: string(edited), Base: r.PostFormValue("base")}
	pg.Title, pg.Data = "edit "+file, ed
	if ed.Base != sum(orig) {
		ed.Err, ed.Base = "the topic changed since you opened it: your text is below; the file now holds the version saved meanwhile", sum(orig)
		s.tmpl.render(w, http.StatusConflict, "edit", "", pg)
		return
	}
	if found := secrets.Scan(string(edited)); len(found) > 0 {
		ed.Err = fmt.Sprintf("line %d looks like a %s: secrets never go into memory; nothing was changed", found[0].Line, found[0].Kind)
		s.tmpl.render(w, http.StatusBadRequest, "edit", "", pg)
		return
	}
	if _, err := pg.Project.Dir.Replace(file, orig, edited); err != nil {
		ed.Err = err.Error() + "; nothing was changed"
		s.tmpl.render(w, statusOf(err), "edit", "", pg)
		return
	}
	http.Redirect(w, r, pg.Link("topic", file), http.StatusSeeOther)
}

// forget removes a topic and its index line, as `memdir rm` does.
func (s *Server) forget(w http.ResponseWriter, r *http.Request) {
	pg, file, ok := s.startTopic(w, r)
	if !ok {
		return
	}
	if file == "" {
		s.fail(w, pg, http.StatusNotFound, errors.New("not a topic file name"))
		return
	}
	if _, err := pg.Project.Dir.RemoveTopic(file); err != nil {
		s.fail(w, pg, statusOf(err), err)
		return
	}
	http.Redirect(w, r, pg.Link("stream"), http.StatusSeeOther)
}

// restore brings a topic back as it was at a commit, as `memdir restore`
// does: through Dir.Restore, which scans the version for secrets and
// says in the commit where it came from.
func (s *Server) restore(w http.ResponseWriter, r *http.Request) {
	pg, file, ok := s.startTopic(w, r)
	if !ok {
		return
	}
	if err := s.restoreAt(pg.Project.Dir, file, r.PostFormValue("rev")); err != nil {
		s.fail(w, pg, statusOf(err), err)
		return
	}
	http.Redirect(w, r, pg.Link("topic", file), http.StatusSeeOther)
}

func (s *Server) restoreAt(d *memdir.Dir, file, rev string) error {
	if rev == "" {
		return &memdir.InputError{Msg: "restore needs a commit"}
	}
	repo, err := memgit.Open(d.Path, s.opts.Git)
	if err != nil {
		return err
	}
	at, err := repo.Resolve(rev)
	if err != nil {
		return &memdir.InputError{Msg: err.Error()}
	}
	data, err := repo.FileAt(at.Hash, file)
	if err != nil {
		return &memdir.InputError{Msg: fmt.Sprintf("%s did not exist at %s", file, at.Short)}
	}
	_, err = d.Restore(file, data, at.Short)
	return err
}

// fit fits MEMORY.md under its caps, as `memdir index --fit` does.
func (s *Server) fit(w http.ResponseWriter, r *http.Request) {
	pg, ok := s.start(w, r, "index")
	if !ok {
		return
	}
	if _, err := pg.Project.Dir.Fit(); err != nil {
		s.fail(w, pg, statusOf(err), err)
		return
	}
	http.Redirect(w, r, pg.Link("index"), http.StatusSeeOther)
}
