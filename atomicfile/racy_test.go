package atomicfile

import (
	"testing"
	"time"
)

func TestRacy(t *testing.T) {
	at := time.Date(2026, 11, 25, 10, 0, 10, 0, time.UTC).UnixNano()
	sec, ms := int64(time.Second), int64(time.Millisecond)
	tests := []struct {
		name         string
		mtime, ctime int64
		want         bool
	}{
		{"whole seconds, 1 s before", at - sec, at - sec, true},
		{"whole seconds, 3 s before", at - 3*sec, at - 3*sec, false},
		{"nanoseconds, 50 ms before", at - 50*ms + 7, at - 50*ms + 7, true},
		{"nanoseconds, 200 ms before", at - 200*ms + 7, at - 200*ms + 7, false},
		{"old mtime, fresh ctime (a copy keeping mtime)", at - 3*sec, at - 10*ms, true},
		{"in the future (a clock step)", at + sec, at + sec, true},
	}
	for _, tt := range tests {
		if got := Racy(tt.mtime, tt.ctime, at); got != tt.want {
			t.Errorf("%s: Racy = %v, want %v", tt.name, got, tt.want)
		}
	}
}
