package importer

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/memdir/memdir/untrusted"
)

// mem0 and OpenMemory exports (mem0ai/mem0 at 54e275a):
//
//   - mem0's get_all / the platform's export: {"results": [{"id",
//     "memory", "categories", "created_at", "updated_at", ...}]}, or the
//     bare list;
//   - OpenMemory's backup export (openmemory/api/app/routers/backup.py):
//     a zip holding memories.json ({"memories": [{"id", "content",
//     "state", "created_at", "updated_at", "category_ids"}],
//     "categories": [{"id", "name"}], ...}) and memories.jsonl.gz (one
//     {"content", "state", "categories": [names], ...} a line). PATH may be
//     the zip, memories.json or the JSON lines.
//
// Memories whose state is deleted or archived are skipped.

// Mem0Record is one memory of an export, whichever shape it came in.
type Mem0Record struct {
	ID          string          `json:"id"`
	Memory      string          `json:"memory"`
	Content     string          `json:"content"`
	Text        string          `json:"text"`
	State       string          `json:"state"`
	Categories  json.RawMessage `json:"categories"`
	CategoryIDs []string        `json:"category_ids"`
	CreatedAt   string          `json:"created_at"`
	UpdatedAt   string          `json:"updated_at"`
}

type mem0Export struct {
	Results    []Mem0Record `json:"results"`
	Memories   []Mem0Record `json:"memories"`
	Categories []struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"categories"`
}

// ParseMem0 reads an export's JSON (an object, a list or JSON lines) into
// its records, with category names resolved.
func ParseMem0(data []byte) ([]Mem0Record, error) {
	data = bytes.TrimSpace(data)
	switch {
	case len(data) == 0:
		return nil, fmt.Errorf("empty")
	case data[0] == '[':
		var rs []Mem0Record
		if err := json.Unmarshal(data, &rs); err != nil {
			return nil, err
		}
		return rs, nil
	}
	var ex mem0Export
	if err := json.Unmarshal(data, &ex); err == nil {
		names := map[string]string{}
		for _, c := range ex.Categories {
			names[c.ID] = c.Name
		}
		rs := append(ex.Results, ex.Memories...)
		for i, r := range rs {
			var named []string
			for _, id := range r.CategoryIDs {
				if n := names[id]; n != "" {
					named = append(named, n)
				}
			}
			rs[i].CategoryIDs = named
		}
		return rs, nil
	}
	var rs []Mem0Record
	dec := json.NewDecoder(bytes.NewReader(data))
	for dec.More() {
		var r Mem0Record
		if err := dec.Decode(&r); err != nil {
			return nil, fmt.Errorf("not a mem0 or OpenMemory export: %w", err)
		}
		rs = append(rs, r)
	}
	return rs, nil
}

func (r Mem0Record) text() string {
	for _, s := range []string{r.Memory, r.Content, r.Text} {
		if strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s)
		}
	}
	return ""
}

func (r Mem0Record) tags() []string {
	var names []string
	_ = json.Unmarshal(r.Categories, &names)
	var out []string
	for _, n := range append(names, r.CategoryIDs...) {
		if t := tag(n); t != "" && len(out) < 10 {
			out = append(out, t)
		}
	}
	return out
}

func readMem0(path string) ([]Memory, []Skip, error) {
	data, err := untrusted.ReadFile(path, "", MaxFile)
	if err != nil {
		return nil, nil, &InputError{Msg: fmt.Sprintf("read %s: %v", path, err), Err: err}
	}
	if bytes.HasPrefix(data, []byte("PK\x03\x04")) {
		if data, err = unzipExport(data); err != nil {
			return nil, nil, &InputError{Msg: fmt.Sprintf("%s: %v", path, err), Err: err}
		}
	} else if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		if data, err = gunzip(bytes.NewReader(data)); err != nil {
			return nil, nil, &InputError{Msg: fmt.Sprintf("%s: %v", path, err), Err: err}
		}
	}
	rs, err := ParseMem0(data)
	if err != nil {
		return nil, nil, &InputError{Msg: fmt.Sprintf("%s: %v", path, err), Err: err}
	}
	var mems []Memory
	var skips []Skip
	for i, r := range rs {
		src := fmt.Sprintf("%s#%d", path, i+1)
		if r.ID != "" {
			src = path + "#" + r.ID
		}
		text := r.text()
		switch {
		case r.State == "deleted" || r.State == "archived":
			skips = append(skips, Skip{Source: src, Reason: "the memory is " + r.State + " there"})
			continue
		case text == "":
			skips = append(skips, Skip{Source: src, Reason: "no text"})
			continue
		}
		m := Memory{Source: src, Name: nameOf(text), Text: text, Tags: r.tags()}
		for _, d := range []string{r.UpdatedAt, r.CreatedAt} {
			if t, err := parseISO(d); err == nil {
				m.Date = t
				break
			}
		}
		mems = append(mems, m)
	}
	return mems, skips, nil
}

// parseISO reads Python's isoformat (with or without a zone) and RFC 3339.
func parseISO(s string) (time.Time, error) {
	for _, f := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999", "2006-01-02 15:04:05.999999-07:00", "2006-01-02"} {
		if t, err := time.Parse(f, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("not a date: %q", s)
}

// unzipExport returns memories.json from an OpenMemory export zip (or,
// without it, memories.jsonl.gz unpacked), each read within MaxFile.
func unzipExport(data []byte) ([]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("not a zip: %w", err)
	}
	var gz *zip.File
	for _, f := range zr.File {
		base := f.Name[strings.LastIndex(f.Name, "/")+1:]
		switch base {
		case "memories.json":
			rc, err := f.Open()
			if err != nil {
				return nil, err
			}
			defer rc.Close()
			return readBounded(rc)
		case "memories.jsonl.gz":
			gz = f
		}
	}
	if gz == nil {
		return nil, fmt.Errorf("the zip holds neither memories.json nor memories.jsonl.gz")
	}
	rc, err := gz.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return gunzip(rc)
}

func gunzip(r io.Reader) ([]byte, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	return readBounded(zr)
}

// readBounded reads at most MaxFile bytes: a larger (or bomb) member is
// refused.
func readBounded(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFile+1))
	if err == nil && len(data) > MaxFile {
		err = fmt.Errorf("a member unpacks to more than %d bytes", MaxFile)
	}
	return data, err
}
