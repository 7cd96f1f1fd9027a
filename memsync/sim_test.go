package memsync

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memdir/memdir/dream"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/secrets"
	"github.com/memdir/memdir/typesx"
)

// TestSyncSimulation runs three machines (three homes, the project at
// three paths) through random adds, edits, removals, dreams and syncs in
// random order (some SIGKILLed at a random point, some racing an agent
// that appends without memdir's lock, some refused by the remote), then
// lets each sync twice, and checks: every machine holds the same files;
// every topic nobody removed is there once, with its line in the index;
// every line appended to such a topic survives (no line lost) and is in
// the topic at most once (no memory twice); no conflict copy in the
// index; no conflict markers; MEMORY.md within its caps; git fsck clean.
// It logs the lines lost and the conflict copies per 100 concurrent
// edits (all appends: 0). MEMDIR_SIM_SEED and MEMDIR_SIM_OPS change the
// run.
func TestSyncSimulation(t *testing.T) {
	bare := bareRemote(t)
	ms := []*machine{newMachine(t, "file://"+bare), newMachine(t, "file://"+bare), newMachine(t, "file://"+bare)}
	simulate(t, bare, ms, true)
}

// TestTeamRemoteSimulation is the same simulation for two teammates
// (two homes, the project at two paths) who share the project's team
// memory through an accepted team remote (SyncTeam), with SIGKILLed
// syncs; team memory has no daily logs, so there are no dreams.
func TestTeamRemoteSimulation(t *testing.T) {
	bare := bareRemote(t)
	ms := []*machine{newTeamMachine(t, "file://"+bare), newTeamMachine(t, "file://"+bare)}
	simulate(t, bare, ms, false)
}

// simulate runs the machines through random operations against the
// remote bare, then checks that they converged and lost nothing.
func simulate(t *testing.T, bare string, ms []*machine, dreams bool) {
	seed, ops := uint64(21), 60
	if s, err := strconv.ParseUint(os.Getenv("MEMDIR_SIM_SEED"), 10, 64); err == nil {
		seed = s
	}
	if n, err := strconv.Atoi(os.Getenv("MEMDIR_SIM_OPS")); err == nil {
		ops = n
	}
	rng := rand.New(rand.NewPCG(seed, seed))
	removed := map[string]bool{}
	lines := map[string][]string{} // topic file -> lines appended to it
	counts := map[string]int{}
	leaked := map[*machine][]string{} // files a credential was pasted into
	for i := 0; i < ops; i++ {
		k := rng.IntN(len(ms))
		m := ms[k]
		known := simTopics(t, m)
		switch op := rng.IntN(13); {
		case op < 3 || len(known) == 0:
			name := fmt.Sprintf("m%d n%d", k, i)
			m.add(t, typesx.Reference, name, "Fact "+name+".", false)
			counts["add"]++
		case op < 6 && rng.IntN(8) == 0:
			// A credential pasted into a topic: the file is held back
			// on this machine until a person takes it out (below).
			f := known[rng.IntN(len(known))]
			simAppend(t, m, f, simSecret)
			leaked[m] = append(leaked[m], f)
			counts["secret"]++
		case op < 6:
			f := known[rng.IntN(len(known))]
			line := fmt.Sprintf("Edit %d by m%d.", i, k)
			simAppend(t, m, f, line)
			lines[f] = append(lines[f], line)
			counts["edit"]++
		case op == 11:
			// An agent appends to a topic without memdir's lock while
			// this machine syncs (Claude Code writes so).
			f := known[rng.IntN(len(known))]
			for _, l := range simUnlockedSync(t, m, f, i) {
				lines[f] = append(lines[f], l)
			}
			counts["edit"] += 5
			counts["unlocked"]++
		case op == 12:
			// The remote refuses the push (read-only, a hook): the sync
			// fails and writes nothing into memory.
			refuse(t, bare, true)
			if res, err := m.trySync(); err == nil && res.Pushed {
				t.Fatalf("a refused push counted as pushed")
			}
			refuse(t, bare, false)
			counts["refused"]++
		case op < 7 && rng.IntN(2) == 0:
			if simKilledSync(t, m, time.Duration(rng.IntN(400))*time.Millisecond) {
				counts["killed"]++
			} else {
				counts["sync"]++
			}
		case op == 10 && dreams:
			// A fact logged, then a dream: it distills the log into a
			// topic, archives what it retires and refits the index.
			name := fmt.Sprintf("m%d d%d", k, i)
			if _, err := memdir.Open(m.mem, memdir.Log).Add(memdir.AddRequest{Type: typesx.Reference, Name: name, Text: "Logged " + name + "."}); err != nil {
				t.Fatal(err)
			}
			rep, err := dream.Run(context.Background(), dream.Options{Dir: memdir.Open(m.mem, memdir.Live)})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range rep.Archived {
				removed[filepath.Base(f)] = true
			}
			counts["dream"]++
			counts["distilled"] += len(rep.Created)
		case op < 7 || op == 10:
			f := known[rng.IntN(len(known))]
			if _, err := memdir.Open(m.mem, memdir.Live).RemoveTopic(f); err != nil {
				t.Fatal(err)
			}
			removed[f] = true
			counts["remove"]++
		default:
			for _, p := range m.sync(t).Projects {
				counts["conflict"] += len(p.Conflicts)
			}
			counts["sync"]++
		}
	}
	for m, files := range leaked {
		for _, f := range files {
			simUnpaste(t, m, f)
		}
	}
	for pass := 0; pass < 2; pass++ {
		for _, m := range ms {
			m.sync(t)
		}
	}
	t.Logf("seed %d: %v", seed, counts)
	copies := 0
	for n := range simFiles(t, ms[0]) {
		if isConflictCopy(n) {
			copies++
		}
	}
	if counts["edit"] > 0 {
		t.Logf("conflict copies per 100 concurrent edits: %.1f (%d copies, %d edits, all appends)", 100*float64(copies)/float64(counts["edit"]), copies, counts["edit"])
	}
	want := simFiles(t, ms[0])
	for _, m := range ms[1:] {
		if got := simFiles(t, m); !sameFiles(got, want) {
			t.Errorf("%s and %s differ after the final syncs", ms[0].home, m.home)
		}
	}
	all := strings.Builder{}
	for n, data := range want {
		all.WriteString(data)
		if strings.Contains(data, "<<<<<<<") || strings.Contains(data, ">>>>>>>") {
			t.Errorf("%s holds conflict markers", n)
		}
	}
	ix := want[memdir.IndexFile]
	if index.Measure([]byte(ix), index.DefaultCaps).OverCap {
		t.Errorf("MEMORY.md is over its caps")
	}
	if strings.Contains(ix, ".conflict-") {
		t.Errorf("MEMORY.md lists a conflict copy:\n%s", ix)
	}
	lost := 0
	for f, ls := range lines {
		if removed[f] {
			continue
		}
		if _, ok := want[f]; !ok {
			t.Errorf("%s, never removed, is gone", f)
		}
		if strings.Count(ix, "("+f+")") != 1 {
			t.Errorf("MEMORY.md lists %s %d times", f, strings.Count(ix, "("+f+")"))
		}
		for _, l := range ls {
			if !strings.Contains(all.String(), l) {
				lost++
				t.Errorf("the edit %q of %s is lost", l, f)
			}
			if n := strings.Count(want[f], l+"\n"); n > 1 {
				t.Errorf("the edit %q is in %s %d times", l, f, n)
			}
		}
	}
	t.Logf("lines lost: %d", lost)
	run(t, bare, "git", "fsck", "--strict")
	objects := run(t, bare, "git", "cat-file", "--batch-all-objects", "--batch")
	if f := secrets.Scan(objects); len(f) > 0 {
		t.Errorf("a credential reached the remote: %s (line %d of the objects)", f[0].Kind, f[0].Line)
	}
}

// simSecret is a credential the scanner finds (an AWS access key id).
const simSecret = "aws_access_key_id = AKIAZ7QW4RTY2UIO3PLK"

// simUnpaste takes the pasted credential out of a machine's file, as a
// person does when the sync warns that the file is held back.
func simUnpaste(t *testing.T, m *machine, f string) {
	t.Helper()
	name := filepath.Join(m.mem, f)
	data, err := os.ReadFile(name)
	if os.IsNotExist(err) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(strings.ReplaceAll(string(data), simSecret+"\n", "")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// simKilledSync starts a sync in a child process and SIGKILLs it after
// d, wherever it is then (fault injection at a random point, not a wait
// for anything); killed is false when it finished first.
func simKilledSync(t *testing.T, m *machine, d time.Duration) (killed bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "MEMDIR_SYNC_CHILD="+m.home, "MEMDIR_SYNC_MEM="+m.mem, "MEMDIR_SYNC_ROOT="+m.root, "MEMDIR_SYNC_TEAM="+m.team)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("sync in a child: %v", err)
		}
		return false
	case <-time.After(d):
		cmd.Process.Signal(syscall.SIGKILL)
		<-done
		return true
	}
}

// simTopics lists a machine's topic files, conflict copies left out.
func simTopics(t *testing.T, m *machine) []string {
	t.Helper()
	if _, err := os.Stat(m.mem); err != nil {
		return nil
	}
	files, err := memdir.Open(m.mem, memdir.Live).TopicFiles()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		if !isConflictCopy(f) {
			out = append(out, f)
		}
	}
	return out
}

func simAppend(t *testing.T, m *machine, f, line string) {
	t.Helper()
	name := filepath.Join(m.mem, f)
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, append(data, []byte(line+"\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// simFiles reads the synced files of a machine's memory directory.
func simFiles(t *testing.T, m *machine) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(m.mem)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range ents {
		if e.Type().IsRegular() && Synced(e.Name()) {
			out[e.Name()] = m.read(t, e.Name())
		}
	}
	return out
}

func sameFiles(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// simUnlockedSync syncs m while a process appends five lines to its topic
// f without memdir's lock, one every 10 ms (a pace, not a wait for the
// sync); it returns the lines, once the writer is done.
func simUnlockedSync(t *testing.T, m *machine, f string, i int) []string {
	t.Helper()
	var want []string
	for k := 0; k < 5; k++ {
		want = append(want, fmt.Sprintf("Unlocked %d.%d.", i, k))
	}
	w := exec.Command("sh", "-c", `for l in "$@"; do echo "$l" >> "$TOPIC"; sleep 0.01; done`, "sh")
	w.Args = append(w.Args, want...)
	w.Env = append(os.Environ(), "TOPIC="+filepath.Join(m.mem, f))
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	m.sync(t)
	if err := w.Wait(); err != nil {
		t.Fatal(err)
	}
	return want
}
