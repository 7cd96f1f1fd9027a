package memsync

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/typesx"
)

// TestStatCacheSeesEveryEdit: after a sync has cached the directory, an
// edit that keeps a topic's size, with its modification time put back,
// and a same-size file renamed over a topic (new inode) are still
// pushed; so is an edit after the cache was damaged.
func TestStatCacheSeesEveryEdit(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(t *testing.T, m *machine, file string)
	}{
		{"same size, mtime put back", func(t *testing.T, m *machine, file string) {
			path := filepath.Join(m.mem, file)
			fi, _ := os.Stat(path)
			data, _ := os.ReadFile(path)
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteAt([]byte(strings.ToUpper(string(data[len(data)-6:len(data)-1]))), int64(len(data)-6)); err != nil {
				t.Fatal(err)
			}
			f.Close()
			if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
		}},
		{"same size, renamed over", func(t *testing.T, m *machine, file string) {
			path := filepath.Join(m.mem, file)
			fi, _ := os.Stat(path)
			data, _ := os.ReadFile(path)
			edited := append(data[:len(data)-6:len(data)-6], []byte(strings.ToUpper(string(data[len(data)-6:])))...)
			tmp := filepath.Join(m.mem, ".edit")
			if err := os.WriteFile(tmp, edited, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(tmp, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, path); err != nil {
				t.Fatal(err)
			}
		}},
		{"damaged cache", func(t *testing.T, m *machine, file string) {
			caches, _ := filepath.Glob(filepath.Join(m.home, Folder, cacheDir, "*"))
			if len(caches) != 1 {
				t.Fatalf("caches = %v, want one", caches)
			}
			if err := os.WriteFile(caches[0], []byte("not a cache"), 0o600); err != nil {
				t.Fatal(err)
			}
			simAppend(t, m, file, "one more line")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bare := bareRemote(t)
			a, b := newMachine(t, "file://"+bare), newMachine(t, "file://"+bare)
			file := a.add(t, typesx.Reference, "Dashboards", "Grafana dashboards live at grafana.internal.", false)
			a.sync(t)
			if res := a.sync(t); res.Pushed {
				t.Fatal("a second sync with nothing to do pushed")
			}
			tc.edit(t, a, file)
			want := a.read(t, file)
			if res := a.sync(t); !res.Pushed {
				t.Fatalf("the edit was not pushed: %+v", res)
			}
			b.sync(t)
			if got := b.read(t, file); got != want {
				t.Errorf("the other machine has\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestSyncWithNothingToDoAsksTheRemoteOnly: once a sync has cached the
// directory, a sync with nothing to do runs one git, ls-remote: no ref
// listing, no tree listing, no fetch.
func TestSyncWithNothingToDoAsksTheRemoteOnly(t *testing.T) {
	bare := bareRemote(t)
	a := newMachine(t, "file://"+bare)
	a.add(t, typesx.Reference, "Dashboards", "Grafana dashboards live at grafana.internal.", false)
	a.add(t, typesx.User, "Health", "Private-note-7731.", true)
	settle(t, a.mem)
	a.sync(t)
	a.sync(t)
	trace := filepath.Join(t.TempDir(), "trace")
	t.Setenv("GIT_TRACE", trace)
	res := a.sync(t)
	if res.Pushed || len(res.Projects) != 1 {
		t.Fatalf("result %+v, want one project and no push", res)
	}
	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	var gits []string
	for _, l := range strings.Split(string(data), "\n") {
		// upload-pack is the file:// remote's side.
		if _, cmd, ok := strings.Cut(l, "trace: built-in: git "); ok && !strings.HasPrefix(cmd, "upload-pack") {
			gits = append(gits, cmd)
		}
	}
	if len(gits) != 1 || !strings.Contains(gits[0], "ls-remote") {
		t.Errorf("gits run = %q, want ls-remote alone", gits)
	}
	// An edit ends the quiet: the next sync pushes it.
	simAppend(t, a, "reference_dashboards.md", "And in the ops wiki.")
	if res := a.sync(t); !res.Pushed {
		t.Errorf("an edit after a quiet sync was not pushed: %+v", res)
	}
}

// settle returns once no synced file of dir was changed within the racy
// window (atomicfile.Racy): the stat cache rightly trusts no stamp taken
// sooner after a change, and a test of what it trusts must not race the
// clock on a loaded machine.
func settle(t *testing.T, dir string) {
	t.Helper()
	for {
		scan, err := scanDir(dir, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		racy := false
		for _, s := range scan {
			racy = racy || s.Mtime < 0
		}
		if !racy {
			return
		}
		time.Sleep(10 * time.Millisecond) // the clock, not another process, is waited on
	}
}

// FuzzLoadCache: whatever the cache file holds, loading it never fails
// or panics, and gives either an empty cache or one for the same remote
// and directory.
func FuzzLoadCache(f *testing.F) {
	home := f.TempDir()
	good := &statCache{URL: "file:///r", Dir: "/m", Commit: strings.Repeat("a", 40),
		Files: map[string]fileStat{"MEMORY.md": {Size: 3, Mtime: 1, Ctime: 2, Ino: 3, OID: "b"}}}
	if err := good.save(home, "f"); err != nil {
		f.Fatal(err)
	}
	data, err := os.ReadFile(cachePath(home, "f"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte{})
	f.Add(data[:len(data)/2])
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, cacheDir), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(cachePath(dir, "f"), data, 0o600); err != nil {
			t.Fatal(err)
		}
		c := loadCache(dir, "f", "file:///r", "/m")
		if c == nil || c.Files == nil || c.URL != "file:///r" || c.Dir != "/m" {
			t.Fatalf("loadCache = %+v", c)
		}
	})
}
