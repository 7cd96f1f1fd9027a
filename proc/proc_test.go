package proc

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
)

func TestSelfIsNotGone(t *testing.T) {
	s := Self()
	if s.PID != os.Getpid() {
		t.Fatalf("Self().PID = %d, want %d", s.PID, os.Getpid())
	}
	if runtime.GOOS == "linux" && s.Start == "" {
		t.Fatal("Self().Start is empty on Linux")
	}
	if s.Gone() {
		t.Fatal("Self().Gone() = true")
	}
}

func TestEndedProcessIsGone(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep:", err)
	}
	id := Of(cmd.Process.Pid)
	if id.Gone() {
		t.Fatal("a running child is gone")
	}
	cmd.Process.Kill()
	// Before Wait the child is a zombie: provably ended on Linux.
	if runtime.GOOS == "linux" {
		for !id.Gone() {
			runtime.Gosched()
		}
	}
	cmd.Wait()
	if !id.Gone() {
		t.Fatal("a reaped child is not gone")
	}
	if Alive(cmd.Process.Pid) {
		t.Fatal("Alive of a reaped child")
	}
}

func TestReusedPIDIsGone(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("start times are read from /proc")
	}
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep:", err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	id := Of(cmd.Process.Pid)
	id.Start += "1" // another run with this PID
	if !id.Gone() {
		t.Fatal("an ID whose start time differs from the running process's is not gone")
	}
}

func TestParseRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want ID
		ok   bool
	}{
		{"123 456", ID{PID: 123, Start: "456"}, true},
		{"123\n", ID{PID: 123}, true},
		{"", ID{}, false},
		{"-4", ID{}, false},
		{"x 1", ID{}, false},
		{"1 2 3", ID{}, false},
	} {
		got, ok := Parse(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Parse(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
		if ok {
			if back, _ := Parse(got.String()); back != got {
				t.Errorf("Parse(String(%v)) = %v", got, back)
			}
		}
	}
}
