package dream

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/memdir"
)

// FuzzAnswer feeds arbitrary answers to the validator: it never panics,
// and an accepted answer only writes plain topic file names, within the
// caps, without secrets. The decoder refuses exactly what is not one
// JSON answer (trailing data, unknown fields, bad JSON).
func FuzzAnswer(f *testing.F) {
	for _, s := range []string{
		`{"topics":[{"name":"Launch","description":"d","type":"project","body":"b"}]}`,
		`{"topics":[{"file":"../x.md","name":"X","description":"d","type":"user","body":"b"}]}`,
		`{"topics":[],"archive":["project_launch.md"]}`,
		`{"topics":[{"file":"project_launch.md","name":"L","description":"d\n","type":"project","body":"b"}]}`,
	} {
		f.Add(s)
	}
	launch := "---\nname: Launch\ndescription: When\ntype: project\n---\n\nSoon.\n"
	f.Fuzz(func(t *testing.T, s string) {
		ans, err := decodeAnswer([]byte(s))
		// The oracle: one JSON value and nothing else (json.Valid) that
		// decodes with known fields only.
		dec := json.NewDecoder(strings.NewReader(s))
		dec.DisallowUnknownFields()
		var strict Answer
		if want := json.Valid([]byte(s)) && dec.Decode(&strict) == nil; want != (err == nil) {
			t.Fatalf("decodeAnswer error = %v, want accepted = %v", err, want)
		}
		if err != nil {
			return
		}
		tp, err := memdir.ParseTopic("project_launch.md", []byte(launch))
		if err != nil {
			t.Fatal(err)
		}
		snap := &snapshot{topics: []*memdir.Topic{tp}, raw: map[string][]byte{"project_launch.md": []byte(launch)}}
		p := &planner{s: snap, now: testNow, rep: newReport("", time.Time{}, &Options{}), archive: map[string]bool{}}
		works, err := validateAnswer(ans, snap, p)
		if err != nil {
			return
		}
		for _, w := range works {
			if strings.ContainsAny(w.t.File, `/\`) || !fileRe().MatchString(w.t.File) {
				t.Fatalf("accepted file name %q", w.t.File)
			}
			if len(w.t.Body) > memdir.MaxBodyBytes {
				t.Fatalf("accepted a %d-byte body", len(w.t.Body))
			}
			if _, err := w.t.Marshal(); err != nil {
				t.Fatalf("accepted a topic that does not render: %v", err)
			}
		}
	})
}

// TestAnswerNamesFollowAddRules checks that a distiller's topic names meet
// the rules every other way in meets: NFC, no invisible character, a
// letter or digit.
func TestAnswerNamesFollowAddRules(t *testing.T) {
	snap := &snapshot{raw: map[string][]byte{}}
	p := &planner{s: snap, now: testNow, rep: newReport("", time.Time{}, &Options{}), archive: map[string]bool{}}
	answer := func(name string) (*Answer, error) {
		b, _ := json.Marshal(map[string]any{"topics": []map[string]string{{"name": name, "description": "d", "type": "project", "body": "b"}}})
		return decodeAnswer(b)
	}
	for _, name := range []string{"Deploy\u202egnp.exe", "Zero\u200bwidth", "---", "\ufeffBOM name"} {
		ans, err := answer(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := validateAnswer(ans, snap, p); err == nil {
			t.Errorf("name %q accepted", name)
		}
	}
	ans, err := answer("Cafe\u0301 rules")
	if err != nil {
		t.Fatal(err)
	}
	works, err := validateAnswer(ans, snap, p)
	if err != nil || len(works) != 1 || works[0].t.Name != "Caf\u00e9 rules" {
		t.Fatalf("NFD name: works %v, err %v; want one topic named in NFC", works, err)
	}
}
