package dailylog

import (
	"testing"
)

func FuzzParse(f *testing.F) {
	seeds := []string{
		"# 2026-11-22\n\n- 10:04 [feedback] Testing policy: real database.\n  Why: mocks lied.\n- 11:02 remember the VPN\n",
		"\ufeff# 2026-11-22\r\n\r\n- 9:04 [USER] **Name:** Ada\r\n\r\n  more\r\n* [todo] x\n+ y",
		"stray\n  indented\n1. one\n2) two\n---\n- - -\n-\n## 2026-11-23\n- \\10:04 escaped\n",
		"- **a\\*b**: c\n- 10:04:05\n- [project]\n- Title:\n\n\n  body\n\t\ttabbed\n",
		"- 25:61 [ user ] x: y\n  \ufeff- nested\n\ufeff- bom mid file\n- a\r\r\n",
		"- \\\\\n- \\\n- **\n- **:\n- ****: x\n- x:** y\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, problems := Parse(data, testFile)
		var prev int64
		for _, e := range entries {
			if e.Offset < prev || e.End <= e.Offset || e.End > int64(len(data)) {
				t.Fatalf("entry at line %d: range [%d,%d) after %d in %d bytes", e.Line, e.Offset, e.End, prev, len(data))
			}
			prev = e.End
			if e.Hash != Hash(e) {
				t.Fatalf("entry at line %d: hash %q, want %q", e.Line, e.Hash, Hash(e))
			}
			alone, _ := Parse(data[e.Offset:e.End], testFile)
			if len(alone) != 1 || !sameContent(alone[0], e) {
				t.Fatalf("bytes of entry %+v alone parse as %+v", e, alone)
			}
			text := Format(e)
			back, ps := Parse([]byte(text), testFile)
			if len(back) != 1 || len(ps) != 0 || !sameContent(back[0], e) || back[0].End != int64(len(text)) {
				t.Fatalf("Format(%+v) = %q parses as %+v, %v", e, text, back, ps)
			}
		}
		for _, p := range problems {
			if p.Line < 1 || p.File != testFile {
				t.Fatalf("problem %+v has no place", p)
			}
		}
	})
}

func sameContent(a, b Entry) bool {
	return a.Time == b.Time && a.Type == b.Type && a.Title == b.Title && a.Text == b.Text
}
