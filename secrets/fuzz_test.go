package secrets

import (
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzScan(f *testing.F) {
	seeds := []string{
		"",
		"password=hunter22",
		"héllo\r\npassword: \"Tr0ub4dor&3\"\n\ttoken=ghp_" + rnd(36, 60),
		pemBlock("RSA ", "\n", "Proc-Type: 4,ENCRYPTED", ""),
		`{"private_key_id": "` + hexs(40, 61) + `", "private_key": "` + pemBlock("", `\n`) + `"}`,
		"AKIA" + strings.ToUpper(rnd(16, 62)) + " AIza" + rnd(35, 63),
		"postgres://app:s3cr3tPw@db/app?password=x1y2z3w4",
		"Authorization: Bearer " + jwtToken(),
		"Authorization: Bearer " + rnd(40, 64),
		"sk-ant-api03-" + rnd(93, 65) + " sk-proj-" + rnd(48, 66),
		"xoxb-123456789012-1234567890123-" + rnd(24, 67),
		"AccountKey=" + gen(b64, 88, 68) + ";HRKU-" + rnd(60, 69),
		"the password policy requires 12 characters; set token via env",
		"-----BEGIN PRIVATE KEY-----",
		"password=\xff\xfe\x00abc123",
	}
	addSeeds(f, seeds)
	f.Fuzz(func(t *testing.T, text string) {
		ms := scanAll(text, 0)
		for i, m := range ms {
			if m.start < 0 || m.end > len(text) || m.start >= m.end {
				t.Fatalf("match %d span [%d,%d) outside text of %d bytes", i, m.start, m.end, len(text))
			}
			if i > 0 && ms[i-1].end > m.start {
				t.Fatalf("matches %d and %d overlap: %+v %+v", i-1, i, ms[i-1], m)
			}
		}
		fs := Scan(text)
		if len(fs) != len(ms) {
			t.Fatalf("Scan gave %d findings, scan %d matches", len(fs), len(ms))
		}
		for i, f := range fs {
			off := offsetOf(t, text, f.Line, f.Column)
			if off != ms[i].start {
				t.Fatalf("finding %d at line %d col %d = offset %d, want %d", i, f.Line, f.Column, off, ms[i].start)
			}
			if !strings.HasPrefix(text[off:], firstRunes(f.Redacted, shownRunes)) {
				t.Fatalf("finding %d: Redacted %q does not start the text at offset %d", i, f.Redacted, off)
			}
			if f.Kind == "" {
				t.Fatalf("finding %d has no kind", i)
			}
		}
	})
}

// FuzzScanMatchesNaive checks that anchors, gates and windows only save
// work: whatever the table's regexps and validators find when run over the
// whole text, Scan reports too (perhaps as a more specific kind).
func FuzzScanMatchesNaive(f *testing.F) {
	addSeeds(f, []string{"x-.000000000.ACCESS_KEY=" + hexs(40, 70)})
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4<<10 {
			// The plain regexps over a long text are what Scan exists to
			// avoid; at fuzzing rates they would stall the run.
			t.Skip()
		}
		got := scan(text)
		for _, m := range naive(text) {
			i := sort.Search(len(got), func(i int) bool { return got[i].end > m.start })
			if i == len(got) || got[i].start >= m.end {
				t.Fatalf("%s %q found by the plain regexp, missed by scan", func() string { table, _ := detectors(); return table[m.prio].kind }(), text[m.start:m.end])
			}
		}
	})
}

// naive runs every pattern's regexp over the whole text, without anchors,
// gates or windows.
func naive(text string) []match {
	var cands []match
	table, _ := detectors()
	lower := lowerASCII(text) // keywords are ASCII; offsets stay

	for prio := range table {
		p := table[prio]
		if p.perLine {
			cands = append(cands, naiveLines(&p, text, lower, prio)...)
			continue
		}
		atWord := p.atWord
		p.atWord = false
		for _, m := range p.appendMatches(nil, text, window{0, len(text)}, prio) {
			// A key starts a word, or follows a '.' or '-' inside one
			// (x-.db.password=); "bypass=" holds no "pass=" key, and
			// "0AWSSECRETKEY=" no "AWSSECRETKEY=" one.
			if atWord && m.start > 0 && keySet[text[m.start-1]] && text[m.start-1] != '.' && text[m.start-1] != '-' {
				continue
			}
			// Scan looks at most maxAssignLen past a key for its value.
			if atWord && m.end-m.start > maxAssignLen {
				continue
			}
			cands = append(cands, m)
		}
	}
	return resolve(cands)
}

// naiveLines runs a kept rule's regexp the way it is defined: over each
// line that holds one of its keywords, in any case. lower is text in
// lower case, byte for byte.
func naiveLines(p *pattern, text, lower string, prio int) []match {
	var out []match
	for _, k := range p.anchors {
		if strings.Contains(lower, k) {
			break
		}
		if k == p.anchors[len(p.anchors)-1] {
			return nil // no keyword anywhere
		}
	}
	start := 0
	for start <= len(text) {
		end := lineEnd(text, start)
		for _, k := range p.anchors {
			if strings.Contains(lower[start:end], k) {
				out = p.appendMatches(out, text, window{start, end}, prio)
				break
			}
		}
		start = end + 1
	}
	return out
}

// addSeeds adds seeds and every example text of the unit tests.
func addSeeds(f *testing.F, seeds []string) {
	for _, s := range seeds {
		f.Add(s)
	}
	for _, tc := range kindCases() {
		f.Add(tc.text)
	}
	for _, s := range proseCases() {
		f.Add(s)
	}
}

// offsetOf turns a 1-based line and byte column into a byte offset.
func offsetOf(t *testing.T, text string, line, col int) int {
	t.Helper()
	if line < 1 || col < 1 {
		t.Fatalf("line %d col %d not 1-based", line, col)
	}
	off := 0
	for range line - 1 {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			t.Fatalf("line %d past the end of the text", line)
		}
		off += i + 1
	}
	end := lineEnd(text, off)
	if off+col-1 >= end {
		t.Fatalf("line %d col %d past the end of its line", line, col)
	}
	return off + col - 1
}

func firstRunes(s string, n int) string {
	i := 0
	for ; i < len(s) && n > 0; n-- {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}
