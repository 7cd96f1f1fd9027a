package instructions

import (
	"testing"
	"time"
)

func FuzzHang(f *testing.F) {
	for _, s := range []string{"See @docs/a.md.", "<!-- @c.md -->\n@d.md", "`@x.md` @y.md"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		done := make(chan bool)
		go func() {
			FindImports(src)
			done <- true
		}()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			t.Fatalf("FindImports hung on %q", src)
		}
		go func() {
			StripComments(src)
			done <- true
		}()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			t.Fatalf("StripComments hung on %q", src)
		}
	})
}
