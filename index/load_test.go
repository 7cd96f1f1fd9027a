package index

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/memdir/memdir/typesx"
)

// testMetas makes n topics cycling through the types, each hook padded to
// hookLen bytes; project topics get increasing modification times.
func testMetas(n, hookLen int) []Meta {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	metas := make([]Meta, n)
	for i := range metas {
		t := typesx.Types[i%len(typesx.Types)]
		hook := fmt.Sprintf("hook number %d", i)
		for len(hook) < hookLen {
			hook += " word"
		}
		metas[i] = Meta{
			Entry:    Entry{Title: fmt.Sprintf("Topic %d", i), File: fmt.Sprintf("%s_topic_%d.md", t, i), Hook: hook},
			Type:     t,
			Modified: base.Add(time.Duration(i) * time.Hour),
		}
	}
	return metas
}

// indexOf renders metas one line each, in the order given.
func indexOf(metas []Meta) []byte {
	var b strings.Builder
	for _, m := range metas {
		b.WriteString(FormatEntry(m.Entry) + "\n")
	}
	return []byte(b.String())
}

func TestLoadLineCap(t *testing.T) {
	metas := testMetas(300, 20)
	data := indexOf(metas)
	v := Load(data, DefaultCaps)
	if !v.Truncated {
		t.Fatalf("Truncated = false, want true")
	}
	if got := strings.Count(strings.SplitN(v.Text, "\n\n", 2)[0]+"\n", "\n"); got != 200 {
		t.Errorf("loaded text has %d lines, want 200", got)
	}
	if v.LoadedLines != 200 || v.Lines != 300 || v.Bytes != len(data) {
		t.Errorf("figures = %d/%d lines, %d bytes; want 200/300, %d", v.LoadedLines, v.Lines, v.Bytes, len(data))
	}
	if len(v.Loaded) != 200 || len(v.Dropped) != 100 {
		t.Fatalf("loaded %d, dropped %d; want 200, 100", len(v.Loaded), len(v.Dropped))
	}
	if diff := cmp.Diff(metas[200].Entry, v.Dropped[0]); diff != "" {
		t.Errorf("first dropped mismatch (-want +got):\n%s", diff)
	}
	for _, m := range metas[200:] {
		name := m.Entry.Title + " (" + m.Entry.File + ")"
		if !strings.Contains(v.Warning, name) {
			t.Errorf("warning does not name %s", name)
		}
	}
	for _, want := range []string{"300 lines", comma(len(data)) + " bytes", "first 200 lines", "limits: 200 lines, 25,000 bytes", "Not loaded: 100 entries", "memdir index --fit"} {
		if !strings.Contains(v.Warning, want) {
			t.Errorf("warning lacks %q:\n%s", want, v.Warning)
		}
	}
	if !strings.HasSuffix(v.Text, "\n\n"+v.Warning+"\n") || !strings.HasPrefix(string(data), strings.TrimSuffix(v.Text, "\n"+v.Warning+"\n")) {
		t.Errorf("Text is not the kept part followed by the warning")
	}
}

func TestLoadByteCut(t *testing.T) {
	metas := testMetas(150, 190)
	data := indexOf(metas)
	if len(data) <= MaxBytes {
		t.Fatalf("test index is only %d bytes", len(data))
	}
	v := Load(data, DefaultCaps)
	kept := string(data[:v.LoadedBytes])
	if v.LoadedBytes >= MaxBytes || !strings.HasSuffix(kept, "\n") {
		t.Errorf("kept %d bytes ending %q; want < %d ending in a newline", v.LoadedBytes, kept[len(kept)-5:], MaxBytes)
	}
	if next := strings.IndexByte(string(data[v.LoadedBytes:]), '\n'); v.LoadedBytes+next+1 < MaxBytes {
		t.Errorf("cut at %d, but the next line would still fit", v.LoadedBytes)
	}
	if !strings.HasPrefix(v.Text, kept+"\nWARNING: ") {
		t.Errorf("Text does not start with the kept part then the warning")
	}
	if got := len(v.Loaded) + len(v.Dropped); got != 150 || len(v.Dropped) == 0 {
		t.Errorf("loaded %d + dropped %d; want 150 in all, some dropped", len(v.Loaded), len(v.Dropped))
	}
	if !strings.Contains(v.Warning, comma(v.LoadedBytes)+" bytes were loaded") {
		t.Errorf("warning lacks the loaded byte figure:\n%s", v.Warning)
	}
}

func TestLoadCases(t *testing.T) {
	tests := []struct {
		name      string
		data      string
		caps      Caps
		text      string
		truncated bool
		dropped   []Entry
	}{
		{"fits", "- [A](a.md)\n", DefaultCaps, "- [A](a.md)\n", false, nil},
		{"fits without final newline", "a\nb", Caps{Lines: 2, Bytes: 10}, "a\nb", false, nil},
		{"zero caps mean default", "a\n", Caps{}, "a\n", false, nil},
		{"exact byte cap", "abcd\n", Caps{Lines: 5, Bytes: 5}, "abcd\n", false, nil},
		{"partial line dropped", "- [A](a.md)\n- [B](b.md)\n", Caps{Lines: 5, Bytes: 15}, "- [A](a.md)\n", true, []Entry{{"B", "b.md", ""}}},
		{"first line too long", "- [A](a.md)\n", Caps{Lines: 5, Bytes: 5}, "", true, []Entry{{"A", "a.md", ""}}},
		{"only notes cut", "- [A](a.md)\nnote\n", Caps{Lines: 1, Bytes: 100}, "- [A](a.md)\n", true, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := Load([]byte(tc.data), tc.caps)
			if v.Truncated != tc.truncated {
				t.Errorf("Truncated = %v, want %v", v.Truncated, tc.truncated)
			}
			kept := v.Text[:v.LoadedBytes]
			if !v.Truncated && kept != v.Text {
				t.Errorf("Text %q has more than the index", v.Text)
			}
			if kept != tc.text {
				t.Errorf("kept %q, want %q", kept, tc.text)
			}
			if diff := cmp.Diff(tc.dropped, v.Dropped); diff != "" {
				t.Errorf("Dropped mismatch (-want +got):\n%s", diff)
			}
			if (v.Warning != "") != tc.truncated {
				t.Errorf("Warning = %q with Truncated %v", v.Warning, tc.truncated)
			}
		})
	}
}

func TestMeasure(t *testing.T) {
	lines := func(n int) []byte { return []byte(strings.Repeat("x\n", n)) }
	tests := []struct {
		name      string
		data      []byte
		warn, cap bool
		msg       []string
	}{
		{"69% lines", lines(138), false, false, nil},
		{"70% lines", lines(140), false, false, nil},
		{"71% lines", lines(142), true, false, []string{"142/200 lines (71%)", "284/25,000 bytes (1%)", "over 70%: run `memdir index --fit`"}},
		{"71% bytes", []byte(strings.Repeat("y", 17750) + "\n"), true, false, []string{"1/200 lines", "17,751/25,000 bytes (71%)"}},
		{"over lines", indexOf(testMetas(230, 5)), true, true, []string{"230/200 lines (115%)", "over the cap: 30 entries are now invisible to agents: Topic 200 (user_topic_200.md)", "and 20 more"}},
		{"over bytes notes only", []byte(strings.Repeat("z", 25001)), true, true, []string{"over the cap: its last lines are not loaded"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Measure(tc.data, DefaultCaps)
			if p.OverWarn != tc.warn || p.OverCap != tc.cap {
				t.Errorf("OverWarn, OverCap = %v, %v; want %v, %v", p.OverWarn, p.OverCap, tc.warn, tc.cap)
			}
			msg := p.Message()
			if (msg == "") != (len(tc.msg) == 0) {
				t.Errorf("Message() = %q", msg)
			}
			for _, want := range tc.msg {
				if !strings.Contains(msg, want) {
					t.Errorf("Message() lacks %q:\n%s", want, msg)
				}
			}
			if tc.cap && len(p.Invisible) != len(Load(tc.data, DefaultCaps).Dropped) {
				t.Errorf("Invisible has %d entries, Load drops %d", len(p.Invisible), len(Load(tc.data, DefaultCaps).Dropped))
			}
		})
	}
}

func TestComma(t *testing.T) {
	tests := map[int]string{0: "0", 999: "999", 1000: "1,000", 25000: "25,000", 1234567: "1,234,567", -1200: "-1,200"}
	for n, want := range tests {
		if got := comma(n); got != want {
			t.Errorf("comma(%d) = %q, want %q", n, got, want)
		}
	}
}
