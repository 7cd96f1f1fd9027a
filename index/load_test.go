package index

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/memdir/memdir/frontmatter"
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

// claudeTail is the end of Claude Code's warning after what it says was cut.
const claudeTail = ". Keep index entries to one line under ~200 chars; move detail into topic files."

// cut is the middle of the warning: ". Only part of it was loaded: " and note.
func cut(note string) string { return ". Only part of it was loaded: " + note }

func TestLoadLineCap(t *testing.T) {
	metas := testMetas(300, 20)
	data := indexOf(metas)
	v := Load(data, DefaultCaps)
	if !v.Truncated || v.LoadedLines != 200 || v.Lines != 300 {
		t.Fatalf("Truncated %v, %d/%d lines; want true, 200/300", v.Truncated, v.LoadedLines, v.Lines)
	}
	want := strings.Join(strings.Split(string(data), "\n")[:200], "\n") + "\n\n> WARNING: MEMORY.md is 300 lines (limit: 200)" +
		cut(`100 of 300 lines were cut off, starting at line 201 ("- [Topic 200](user_topic_200.md) — hook number 200 word")`) + claudeTail
	if v.Text != want {
		t.Errorf("Text ends %q, want %q", v.Text[len(v.Text)-200:], want[len(want)-200:])
	}
	if len(v.Loaded) != 200 || len(v.Dropped) != 100 {
		t.Fatalf("loaded %d, dropped %d; want 200, 100", len(v.Loaded), len(v.Dropped))
	}
	if diff := cmp.Diff(metas[200].Entry, v.Dropped[0]); diff != "" {
		t.Errorf("first dropped mismatch (-want +got):\n%s", diff)
	}
	// The warning quotes the first line cut; nothing before it names a
	// dropped entry.
	if strings.Contains(strings.TrimSuffix(v.Text, v.Warning), "Topic 200") {
		t.Errorf("the loaded text names a dropped entry")
	}
	note := v.DroppedNote(10)
	if !strings.HasPrefix(note, "100 entries not loaded (over the load caps): Topic 200 (user_topic_200.md), ") || !strings.Contains(note, "and 90 more") {
		t.Errorf("DroppedNote = %q", note)
	}
}

func TestLoadCases(t *testing.T) {
	long := strings.Repeat("x", 30000)
	tests := []struct {
		name    string
		data    string
		caps    Caps
		text    string
		dropped []Entry
	}{
		{"fits, trimmed", "\n\n- [A](a.md)\n\n", DefaultCaps, "- [A](a.md)", nil},
		{"fits without final newline", "a\nb", Caps{Lines: 2, Bytes: 10}, "a\nb", nil},
		{"zero caps mean default", "a\n", Caps{}, "a", nil},
		{"exact size cap", "abcd\n", Caps{Lines: 5, Bytes: 4}, "abcd", nil},
		{"size cut at a newline", "- [A](a.md)\n- [B](b.md)\n", Caps{Lines: 5, Bytes: 15},
			"- [A](a.md)\n\n> WARNING: MEMORY.md is 23 bytes (limit: 15 bytes) — index entries are too long" + cut(`1 of 2 lines were cut off, starting at line 2 ("- [B](b.md)")`) + claudeTail, []Entry{{"B", "b.md", ""}}},
		{"size cut with no newline", "- [A](a.md)\n", Caps{Lines: 5, Bytes: 5},
			"- [A]\n\n> WARNING: MEMORY.md is 11 bytes (limit: 5 bytes) — index entries are too long" + cut("everything after the first 5 characters of line 1 was cut off") + claudeTail, []Entry{{"A", "a.md", ""}}},
		{"only notes cut", "- [A](a.md)\nnote\n", Caps{Lines: 1, Bytes: 100},
			"- [A](a.md)\n\n> WARNING: MEMORY.md is 2 lines (limit: 1)" + cut(`1 of 2 lines were cut off, starting at line 2 ("note")`) + claudeTail, nil},
		{"both caps", "a\nb\n" + long, Caps{Lines: 2, Bytes: 25000},
			"a\nb\n\n> WARNING: MEMORY.md is 3 lines and 29.3KB" + cut(`1 of 3 lines were cut off, starting at line 3 ("`+strings.Repeat("x", 79)+`…")`) + claudeTail, nil},
		{"utf-16 units, not bytes", "ééé\nééé\n", Caps{Lines: 5, Bytes: 7}, "ééé\nééé", nil},
		{"surrogate pair counts two", "😀😀\n", Caps{Lines: 5, Bytes: 3},
			"😀\n\n> WARNING: MEMORY.md is 4 bytes (limit: 3 bytes) — index entries are too long" + cut("everything after the first 3 characters of line 1 was cut off") + claudeTail, nil},
		{"leading blank lines shift numbers", "\n\n- [A](a.md)\n- [B](b.md)\n", Caps{Lines: 1, Bytes: 100},
			"- [A](a.md)\n\n> WARNING: MEMORY.md is 2 lines (limit: 1)" + cut(`1 of 2 lines were cut off, starting at line 2 ("- [B](b.md)")`) + claudeTail, []Entry{{"B", "b.md", ""}}},
		{"frontmatter is not measured", "---\nx: - [F](f.md)\n---\n- [A](a.md)\n- [B](b.md)\n", Caps{Lines: 1, Bytes: 100},
			"- [A](a.md)\n\n> WARNING: MEMORY.md is 2 lines (limit: 1)" + cut(`1 of 2 lines were cut off, starting at line 2 ("- [B](b.md)")`) + claudeTail, []Entry{{"B", "b.md", ""}}},
		{"blank first cut line is not quoted", "a\n \nb\n", Caps{Lines: 1, Bytes: 100},
			"a\n\n> WARNING: MEMORY.md is 3 lines (limit: 1)" + cut("2 of 3 lines were cut off, starting at line 2") + claudeTail, nil},
		{"crlf becomes lf", "a\r\nb\r\nc\r\n", Caps{Lines: 2, Bytes: 100},
			"a\nb\n\n> WARNING: MEMORY.md is 3 lines (limit: 2)" + cut(`1 of 3 lines were cut off, starting at line 3 ("c")`) + claudeTail, nil},
		{"control characters dropped", "a\x01b\u200bc\u200dd\n", DefaultCaps, "abc\u200dd", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := Load([]byte(tc.data), tc.caps)
			if v.Text != tc.text {
				t.Errorf("Text = %q\nwant   %q", v.Text, tc.text)
			}
			if diff := cmp.Diff(tc.dropped, v.Dropped); diff != "" {
				t.Errorf("Dropped mismatch (-want +got):\n%s", diff)
			}
			if (v.Warning != "") != v.Truncated {
				t.Errorf("Warning = %q with Truncated %v", v.Warning, v.Truncated)
			}
		})
	}
}

func TestFormatSize(t *testing.T) {
	tests := map[int]string{0: "0 bytes", 1023: "1023 bytes", 1024: "1KB", 25000: "24.4KB", 24832: "24.3KB", 1075: "1KB", 1076: "1.1KB", 10 * 1024 * 1024: "10MB"}
	for n, want := range tests {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// oracleLoad is Claude Code's iUt written over UTF-16 code units, as the
// JavaScript runs, independent of Load's byte walking.
func oracleLoad(data string, caps Caps) string {
	u := utf16.Encode([]rune(frontmatter.StripClaude(data)))
	isSpace := func(c uint16) bool { return isJSSpace(rune(c)) }
	for len(u) > 0 && isSpace(u[0]) {
		u = u[1:]
	}
	for len(u) > 0 && isSpace(u[len(u)-1]) {
		u = u[:len(u)-1]
	}
	lines := 1
	for _, c := range u {
		if c == '\n' {
			lines++
		}
	}
	size := len(u)
	overL, overS := lines > caps.Lines, size > caps.Bytes
	if !overL && !overS {
		return TrimJS(Scrub(string(utf16.Decode(u))))
	}
	a := u
	if overL {
		n := 0
		for i, c := range u {
			if c == '\n' {
				n++
				if n == caps.Lines {
					a = u[:i]
					break
				}
			}
		}
	}
	if len(a) > caps.Bytes {
		c := -1
		for i := min(caps.Bytes, len(a)-1); i >= 0; i-- {
			if a[i] == '\n' {
				c = i
				break
			}
		}
		if c > 0 {
			a = a[:c]
		} else {
			a = a[:caps.Bytes]
		}
	}
	var reason string
	switch {
	case overS && !overL:
		reason = FormatSize(size) + " (limit: " + FormatSize(caps.Bytes) + ") — index entries are too long"
	case overL && !overS:
		reason = strconv.Itoa(lines) + " lines (limit: " + strconv.Itoa(caps.Lines) + ")"
	default:
		reason = strconv.Itoa(lines) + " lines and " + FormatSize(size)
	}
	var note string
	if len(a) < len(u) && u[len(a)] == '\n' {
		kept := 1
		for _, c := range a {
			if c == '\n' {
				kept++
			}
		}
		next := u[len(a)+1:]
		for i, c := range next {
			if c == '\n' {
				next = next[:i]
				break
			}
		}
		note = strconv.Itoa(lines-kept) + " of " + strconv.Itoa(lines) + " lines were cut off, starting at line " + strconv.Itoa(kept+1)
		if l := trimUnits(next); len(l) > 0 {
			note += ` ("` + string(utf16.Decode(oracleExcerpt(l, 80))) + `")`
		}
	} else {
		note = "everything after the first " + strconv.Itoa(len(a)) + " characters of line 1 was cut off"
	}
	if n := len(a); n > 0 && utf16.IsSurrogate(rune(a[n-1])) && a[n-1] < 0xdc00 {
		a = a[:n-1] // a lone high surrogate: the client drops it
	}
	return TrimJS(Scrub(string(utf16.Decode(a)) + "\n\n> WARNING: MEMORY.md is " + reason + cut(note) + claudeTail))
}

func trimUnits(u []uint16) []uint16 {
	for len(u) > 0 && isJSSpace(rune(u[0])) {
		u = u[1:]
	}
	for len(u) > 0 && isJSSpace(rune(u[len(u)-1])) {
		u = u[:len(u)-1]
	}
	return u
}

// oracleExcerpt is Claude Code's PW over UTF-16 code units.
func oracleExcerpt(u []uint16, n int) []uint16 {
	if len(u) <= n {
		return u
	}
	e := u[:n-1]
	if c := e[len(e)-1]; c >= 0xd800 && c < 0xdc00 {
		e = e[:len(e)-1]
	}
	var word []uint16
	for r := len(e) - 1; r >= 0; r-- {
		if isJSSpace(rune(e[r])) {
			word = e[:r]
			for len(word) > 0 && isJSSpace(rune(word[len(word)-1])) {
				word = word[:len(word)-1]
			}
			break
		}
	}
	if len(word) <= n/2 {
		word = e
		for len(word) > 0 && isJSSpace(rune(word[len(word)-1])) {
			word = word[:len(word)-1]
		}
	}
	return append(append([]uint16{}, word...), '…')
}

func FuzzLoad(f *testing.F) {
	f.Add("- [A](a.md)\n- [B](b.md)\n", 1, 15)
	f.Add("\u3000é😀\n\n x\ny\n", 2, 3)
	f.Add("\ufeffa\r\nb", 1, 100)
	f.Add("---\nk: v\n---\n\u00ad- [A](a.md) x\n \n"+strings.Repeat("word ", 30)+"\n", 1, 300)
	f.Add("a\n"+strings.Repeat("😀 ", 50), 1, 300)
	f.Fuzz(func(t *testing.T, data string, lines, size int) {
		if !utf8.ValidString(data) || lines < 1 || size < 1 || lines > 50 || size > 300 {
			return
		}
		caps := Caps{Lines: lines, Bytes: size}
		got := Load([]byte(data), caps)
		if want := oracleLoad(data, caps); got.Text != want {
			t.Fatalf("Load(%q, %v).Text = %q, oracle %q", data, caps, got.Text, want)
		}
		if diff := cmp.Diff(got, LoadIndex(Parse([]byte(data)), []byte(data), caps)); diff != "" {
			t.Fatalf("LoadIndex(%q) differs from Load (-Load +LoadIndex):\n%s", data, diff)
		}
		p := Measure([]byte(data), caps)
		if p.OverCap != got.Truncated || len(p.Invisible) != len(got.Dropped) {
			t.Fatalf("Measure disagrees with Load on %q", data)
		}
	})
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
		{"71% lines", lines(142), true, false, []string{"142/200 lines (71%)", "283/25,000 characters (1%)", "over 70%: run `memdir index --fit`"}},
		{"71% bytes", []byte(strings.Repeat("y", 17750) + "\n"), true, false, []string{"1/200 lines", "17,750/25,000 characters (71%)"}},
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
