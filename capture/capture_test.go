package capture

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memdir/memdir/typesx"
)

func TestRemember(t *testing.T) {
	for _, tc := range []struct {
		prompt, want string
		ok           bool
	}{
		{"# always use pnpm, not npm", "always use pnpm, not npm", true},
		{"  #staging deploys need the VPN  ", "staging deploys need the VPN", true},
		{"remember that the release freeze starts on Thursday", "the release freeze starts on Thursday", true},
		{"Please remember: I prefer table tests", "I prefer table tests", true},
		{"REMEMBER THAT x", "x", true},
		{"## Heading", "", false},
		{"# Task\n\nRefactor the loader", "", false},
		{"#123 is failing again, fix it", "", false},
		{"#!/bin/sh", "", false},
		{"#", "", false},
		{"remember that", "", false},
		{"do you remember that bug?", "", false},
		{"remembering things is hard", "", false},
		{"fix the build", "", false},
		// Gemini CLI's headless prompt: the session-start context first.
		{"<hook_context>&lt;auto-memory&gt;\n# Your memory\n- [A](a.md) — b\n&lt;/auto-memory&gt;</hook_context>\n\n# always run gofmt", "always run gofmt", true},
		{"<hook_context>ctx</hook_context>\n\nremember that staging needs the VPN", "staging needs the VPN", true},
		{"<hook_context># not this</hook_context>\n\nfix the build", "", false},
		{"<hook_context>never closed\n\n# always run gofmt", "", false},
		{"# always run gofmt <hook_context>x</hook_context>", "always run gofmt <hook_context>x</hook_context>", true},
	} {
		got, ok := Remember(tc.prompt)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Remember(%q) = %q, %v; want %q, %v", tc.prompt, got, ok, tc.want, tc.ok)
		}
	}
}

func TestNoteFrom(t *testing.T) {
	for _, tc := range []struct {
		text string
		want Note
	}{
		{"always run go vet before committing", Note{typesx.Feedback, "Run go vet before committing", "always run go vet before committing"}},
		{"I prefer short commit messages", Note{typesx.User, "I prefer short commit messages", "I prefer short commit messages"}},
		{"the runbook is at https://wiki.example.com/runbook", Note{typesx.Reference, "Runbook", "the runbook is at https://wiki.example.com/runbook"}},
		{"the merge freeze starts on 2026-12-01", Note{typesx.Project, "Merge freeze", "the merge freeze starts on 2026-12-01"}},
	} {
		if diff := cmp.Diff(tc.want, NoteFrom(tc.text)); diff != "" {
			t.Errorf("NoteFrom(%q) (-want +got):\n%s", tc.text, diff)
		}
	}
}

func TestParseInput(t *testing.T) {
	in, err := ParseInput([]byte(`{"session_id":"s","transcript_path":null,"cwd":"/p","hook_event_name":"UserPromptSubmit","model":"gpt-5","turn_id":"t","permission_mode":"default","prompt":"# x"}`))
	if err != nil || in.Event != "UserPromptSubmit" || in.Prompt != "# x" || in.TranscriptPath != "" || !in.IsPrompt() {
		t.Fatalf("ParseInput = %+v, %v", in, err)
	}
	for _, bad := range []string{"", "nope", "[1]", `{"prompt":"x"}`, `{"hook_event_name":1}`, `{"hook_event_name":"Stop"} {}`} {
		_, err := ParseInput([]byte(bad))
		var ie *InputError
		if !errors.As(err, &ie) || strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseInput(%q) = %v; want one-line input error", bad, err)
		}
	}
}

func TestReadTranscript(t *testing.T) {
	for _, tc := range []struct {
		file string
		want Session
	}{
		{"claude.jsonl", Session{
			Prompts: []string{"The integration tests fail on CI, find out why",
				"Good. Export DATABASE_URL=postgres://app:s3cr3tPassw0rd@db.internal:5432/app and rerun",
				"thanks, and keep <private>my manager thinks this is done</private> the notes short"},
			Files:    []string{"/home/dev/src/app/tests/integration/db_test.go", "/home/dev/src/app/docs/testing.md"},
			Commands: []string{"go test ./tests/integration/...", "make test-integration"},
			Errors:   []string{"--- FAIL: TestMigrate (0.31s)"},
		}},
		{"codex.jsonl", Session{
			Prompts:  []string{"rename the config loader to LoadConfig"},
			Files:    []string{"config/load.go"},
			Commands: []string{"rg -n loadCfg", "go build ./..."},
			Errors:   []string{"main.go:9:2: undefined: loadCfg"},
		}},
		{"gemini.jsonl", Session{
			Prompts:  []string{"add a --verbose flag to the cli"},
			Files:    []string{"/home/dev/src/app/cmd/root.go"},
			Commands: []string{"go test ./cmd/..."},
			Errors:   []string{"run_shell_command failed"},
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("..", "testdata", "capture", tc.file)
			got, n, err := ReadFrom(path, 0)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if fi, _ := os.Stat(path); n != fi.Size() {
				t.Errorf("read %d bytes of %d", n, fi.Size())
			}
			if again, m, _ := ReadFrom(path, n); m != n || len(again.Prompts)+len(again.Commands) != 0 {
				t.Errorf("reading from the end: %+v, offset %d", again, m)
			}
		})
	}
}

func TestReadTranscriptKeepsPartialLine(t *testing.T) {
	s, n, err := ReadTranscript(strings.NewReader(`{"type":"user","message":{"content":"one"}}` + "\n" + `{"type":"user","message":{"con`))
	if err != nil || n != 44 || len(s.Prompts) != 1 {
		t.Errorf("got %+v, %d, %v; want one prompt and the offset of the whole line only", s, n, err)
	}
}

func TestDigest(t *testing.T) {
	s, _, err := ReadFrom(filepath.Join("..", "testdata", "capture", "claude.jsonl"), 0)
	if err != nil {
		t.Fatal(err)
	}
	got := Digest(s, "5f3a9c1e-7b2d-4e8a")
	want := `What happened in session 5f3a9c1e, for the next dream.
Prompts:
- The integration tests fail on CI, find out why
- thanks, and keep the notes short
Files edited:
- /home/dev/src/app/tests/integration/db_test.go
- /home/dev/src/app/docs/testing.md
Commands:
- go test ./tests/integration/...
- make test-integration
Errors:
- --- FAIL: TestMigrate (0.31s)
(1 item(s) left out: they looked like credentials.)`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if Digest(Session{}, "x") != "" {
		t.Error("an empty session has a digest")
	}
	many := Session{}
	for i := 0; i < 30; i++ {
		many.Prompts = append(many.Prompts, strings.Repeat("word ", 100)+string(rune('a'+i%26)))
	}
	d := Digest(many, "x")
	if !strings.Contains(d, "(10 earlier ones left out)") || len(d) > 20*(maxItem*2)+200 {
		t.Errorf("digest of 30 long prompts is not capped:\n%s", d)
	}
}

func TestOffsets(t *testing.T) {
	o := NewOffsets(t.TempDir())
	if o.Get("s", "/t") != 0 {
		t.Fatal("unknown session has an offset")
	}
	if err := o.Set("s", "/t", 120); err != nil {
		t.Fatal(err)
	}
	if o.Get("s", "/t") != 120 || o.Get("s", "/other") != 0 {
		t.Error("offsets mixed up")
	}
}

// FuzzParseInput: any bytes give an Input or an input error, never a
// panic; what parses has an event, and Remember's note is part of the
// prompt.
func FuzzParseInput(f *testing.F) {
	f.Add([]byte(`{"hook_event_name":"UserPromptSubmit","prompt":"# use pnpm"}`))
	f.Add([]byte(`{"hook_event_name":"BeforeAgent","prompt":"remember that x","cwd":"/"}`))
	f.Add([]byte(`{"hook_event_name":"SessionEnd","transcript_path":null,"reason":"other"}`))
	f.Add([]byte(`{"hook_event_name":"BeforeAgent","prompt":"<hook_context>c</hook_context>\n\n# use pnpm"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := ParseInput(data)
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("not an input error: %v", err)
			}
			return
		}
		if in.Event == "" {
			t.Fatal("parsed input without an event")
		}
		if note, ok := Remember(in.Prompt); ok && (note == "" || !strings.Contains(in.Prompt, note)) {
			t.Fatalf("note %q is not part of the prompt %q", note, in.Prompt)
		}
	})
}

// FuzzReadTranscript: whatever the file holds, reading never panics, the
// offset never passes the input and stops at a line end.
func FuzzReadTranscript(f *testing.F) {
	for _, name := range []string{"claude.jsonl", "codex.jsonl", "gemini.jsonl"} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "capture", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, n, err := ReadTranscript(strings.NewReader(string(data)))
		if err != nil {
			t.Fatal(err)
		}
		if n > int64(len(data)) || n > 0 && data[n-1] != '\n' {
			t.Fatalf("offset %d of %d bytes is not at a line end", n, len(data))
		}
		_ = Digest(s, "fuzz")
	})
}

// FuzzStripHookContext: the prompt that is left is a suffix of the input,
// and input without Gemini's prefix comes back unchanged.
func FuzzStripHookContext(f *testing.F) {
	for _, s := range []string{"", "# x", "<hook_context>a</hook_context>\n\n# x", "<hook_context>", " <hook_context></hook_context>b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := StripHookContext(s)
		if !strings.HasSuffix(s, got) {
			t.Fatalf("StripHookContext(%q) = %q: not a suffix", s, got)
		}
		if !strings.Contains(s, "<hook_context>") && got != s {
			t.Fatalf("StripHookContext(%q) = %q: changed a prompt without the prefix", s, got)
		}
		if got != s && !strings.Contains(s[:len(s)-len(got)], "</hook_context>") {
			t.Fatalf("StripHookContext(%q) cut %q without a closing tag", s, s[:len(s)-len(got)])
		}
	})
}
