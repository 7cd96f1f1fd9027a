package dream

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		wantErr bool
	}{
		{"llm-distill --model big", []string{"llm-distill", "--model", "big"}, false},
		{`sh -c 'jq . | tee /tmp/x'`, []string{"sh", "-c", "jq . | tee /tmp/x"}, false},
		{`"/opt/my tools/distill" --x="a \"b\" \$c"`, []string{"/opt/my tools/distill", `--x=a "b" $c`}, false},
		{`a\ b c`, []string{"a b", "c"}, false},
		{`''`, []string{""}, false},
		{"  \t ", nil, false},
		{`'open`, nil, true},
		{`"open`, nil, true},
		{`trailing\`, nil, true},
	}
	for _, tc := range tests {
		got, err := SplitCommand(tc.in)
		if (err != nil) != tc.wantErr {
			t.Errorf("SplitCommand(%q) error = %v, want error %v", tc.in, err, tc.wantErr)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("SplitCommand(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

// FuzzSplitCommand checks that splitting never panics and that words
// quoted with single quotes come back as they were.
func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{"a b", `sh -c 'x | y'`, `"a\"b"`, `a\ b`, `'`, `"\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := SplitCommand(s)
		if err != nil {
			return
		}
		var quoted []string
		for _, w := range words {
			if strings.Contains(w, "'") {
				return
			}
			quoted = append(quoted, "'"+w+"'")
		}
		again, err := SplitCommand(strings.Join(quoted, " "))
		if err != nil {
			t.Fatalf("requoted %q: %v", words, err)
		}
		if len(words) == 0 && len(again) == 0 {
			return
		}
		if diff := cmp.Diff(words, again); diff != "" {
			t.Fatalf("requoting changed the words (-first +again):\n%s", diff)
		}
	})
}
