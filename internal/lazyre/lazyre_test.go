package lazyre

import "testing"

func TestNew(t *testing.T) {
	re := New(`^a+$`)
	if re() != re() {
		t.Fatal("two calls compiled two regexps")
	}
	if !re().MatchString("aaa") || re().MatchString("ab") {
		t.Fatal("the pattern does not match as compiled")
	}
	bad := New(`(`)
	defer func() {
		if recover() == nil {
			t.Fatal("a bad pattern did not panic on first use")
		}
	}()
	bad()
}
