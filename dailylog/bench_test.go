package dailylog

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/typesx"
)

var benchEntry = Entry{
	Time:  "10:04",
	Type:  typesx.Feedback,
	Title: "Testing policy",
	Text:  "Integration tests must run against a real database, never mocks.\nWhy: a mocked suite passed while the production migration failed.",
}

// BenchmarkAppend measures one durable append (write and fsync) to a log.
func BenchmarkAppend(b *testing.B) {
	dir := b.TempDir()
	for b.Loop() {
		if _, err := Append(dir, testNow, benchEntry); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRead measures reading a year of logs: 365 files of 30 entries.
func BenchmarkRead(b *testing.B) {
	dir := b.TempDir()
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for d := range 365 {
		now := day.AddDate(0, 0, d)
		var sb strings.Builder
		sb.WriteString("# " + now.Format(DateLayout) + "\n\n")
		for i := range 30 {
			e := benchEntry
			e.Time = fmt.Sprintf("%02d:%02d", 8+i/6, i%6*10)
			e.Text = fmt.Sprintf("entry %d of day %d: %s", i, d, benchEntry.Text)
			sb.WriteString(Format(e))
		}
		path := Path(dir, now)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		entries, problems, err := Read(dir, "", "")
		if err != nil || len(problems) != 0 || len(entries) != 365*30 {
			b.Fatalf("Read = %d entries, %v, %v; want %d", len(entries), problems, err, 365*30)
		}
	}
}
