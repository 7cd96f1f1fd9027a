package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memdir/memdir/memdir"
)

// TestMCPExitsWhileACallWaits: `memdir mcp` ends when its client goes away
// or on SIGTERM, even while a call is stuck (here an add waits for a lock
// another process holds, with a lock timeout of an hour).
func TestMCPExitsWhileACallWaits(t *testing.T) {
	for _, how := range []string{"client-gone", "sigterm"} {
		t.Run(how, func(t *testing.T) {
			e := newMCPEnv(t)
			dir := filepath.Join(t.TempDir(), "mem")
			if err := os.WriteFile(filepath.Join(e.proj, ".memdir.local.yaml"), []byte("lock:\n  timeout: 1h\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			e.run("", "--dir", dir, "add", "user", "Role", "Go engineer.")
			lk, err := memdir.AcquireLock(context.Background(), dir, time.Second, "test")
			if err != nil {
				t.Fatal(err)
			}
			defer lk.Release()

			cmd := e.command("", "--dir", dir, "mcp")
			stdin, _ := cmd.StdinPipe()
			stdout, _ := cmd.StdoutPipe()
			cmd.Stderr = &testLog{t}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			lines := bufio.NewScanner(stdout)
			send := func(s string) {
				if _, err := io.WriteString(stdin, s+"\n"); err != nil {
					t.Fatal(err)
				}
			}
			await := func(id string) {
				for lines.Scan() {
					if strings.Contains(lines.Text(), `"id":`+id+`,`) {
						return
					}
				}
				t.Fatalf("no answer to request %s", id)
			}
			send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
			await("1")
			send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory_add","arguments":{"type":"user","name":"Editor","text":"Uses vim."}}}`)
			// Requests are read in order: the answer to a ping says the add
			// was read and is waiting.
			send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
			await("3")
			if how == "client-gone" {
				stdin.Close()
			} else if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() {
				io.Copy(io.Discard, stdout)
				exited <- cmd.Wait()
			}()
			select {
			case <-exited:
			case <-time.After(time.Minute):
				cmd.Process.Kill()
				t.Fatal("memdir mcp still running a minute after its client left while a call waited")
			}
		})
	}
}
