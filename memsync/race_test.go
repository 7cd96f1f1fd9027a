package memsync

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSyncUnlockedWriterLosesNothing races a real `memdir sync` against
// a real process appending lines to a topic without memdir's lock, as an
// agent writes (a line every 20 ms: a pace, not a synchronisation):
// machines A and B each changed 300 topics, and A merges them while the
// writer appends to one of them. Once the writer stops and both machines
// sync again, every line it wrote is in the topic on both machines, with
// B's line and A's change, and no conflict copy was made.
func TestSyncUnlockedWriterLosesNothing(t *testing.T) {
	bin := buildMemdirBinary(t, t.TempDir())
	bare := bareRemote(t)
	a, b := newMachine(t, "file://"+bare), newMachine(t, "file://"+bare)
	writeTopics(t, a, "shared", 300)
	a.sync(t)
	b.sync(t)
	for i := 0; i < 300; i++ {
		f := fmt.Sprintf("reference_shared_%04d.md", i)
		simAppend(t, b, f, fmt.Sprintf("B's line %d.", i))
		// A changes another line of every topic: its sync merges 300.
		name := filepath.Join(a.mem, f)
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(strings.Replace(string(data), "a few words long.", "a few words long, checked by A.", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b.sync(t)

	topic := filepath.Join(a.mem, "reference_shared_0000.md")
	stop := filepath.Join(t.TempDir(), "stop")
	writer := exec.Command("sh", "-c", `i=0; while [ ! -e "$STOP" ]; do i=$((i+1)); echo "Writer line $i." >> "$TOPIC"; [ $i = 1 ] && echo ready; sleep 0.02; done; echo $i`)
	writer.Env = append(os.Environ(), "STOP="+stop, "TOPIC="+topic)
	out, err := writer.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := writer.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	if !lines.Scan() || lines.Text() != "ready" {
		t.Fatalf("the writer did not start: %q", lines.Text())
	}
	sync := exec.Command(bin, "--dir", a.mem, "sync")
	sync.Env = append(os.Environ(), "MEMDIR_HOME="+a.home, "HOME="+filepath.Dir(a.home))
	sync.Dir = a.root
	syncOut, syncErr := sync.CombinedOutput()
	if err := os.WriteFile(stop, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if !lines.Scan() {
		t.Fatal("the writer said nothing at its end")
	}
	written, _ := strconv.Atoi(lines.Text())
	if err := writer.Wait(); err != nil {
		t.Fatal(err)
	}
	if syncErr != nil {
		t.Fatalf("memdir sync: %v\n%s", syncErr, syncOut)
	}
	during := strings.Count(readFile(t, topic), "Writer line")
	for _, m := range []*machine{a, b, a} {
		m.sync(t)
	}
	lost := 0
	for _, m := range []*machine{a, b} {
		got := m.read(t, "reference_shared_0000.md")
		for i := 1; i <= written; i++ {
			if !strings.Contains(got, fmt.Sprintf("Writer line %d.\n", i)) {
				lost++
			}
		}
		if !strings.Contains(got, "B's line 0.") || !strings.Contains(got, "checked by A.") {
			t.Errorf("%s: B's line or A's change is gone:\n%s", m.home, got)
		}
		if copies, _ := filepath.Glob(filepath.Join(m.mem, "*.conflict-*")); len(copies) > 0 {
			t.Errorf("%s: conflict copies %v", m.home, copies)
		}
	}
	t.Logf("the writer appended %d lines, %d of them before the sync ended; lines lost: %d", written, during, lost)
	if lost > 0 {
		t.Errorf("%d writer lines lost", lost)
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return string(data)
}
