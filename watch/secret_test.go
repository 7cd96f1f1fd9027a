package watch

import (
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/memdir"
)

// oneLineKey is a private key collapsed onto one line, as a person pastes
// it: fake key material with the DER start of an RSA key.
const oneLineKey = "-----BEGIN RSA PRIVATE KEY----- MIIEowIBAAKCAQEA8ISsWbV9J6Das4VuRAhzjRZlchCl24o2rOugvkZ189XdkyHTUXNoGEQUVwdW3edC2fXAnCwjJe3J/Sg6VARK689Ev7Ux -----END RSA PRIVATE KEY-----"

// TestWatchNeverIndexesASecret: a person writes a key into a topic file.
// The watcher cannot un-write it; it reports the file (redacted), leaves
// it as written, keeps its index line as it was and indexes no new file
// that holds one, so the key never reaches MEMORY.md.
func TestWatchNeverIndexesASecret(t *testing.T) {
	index := "- [Role](user_role.md) — Senior Go engineer\n"
	h := startWatch(t, map[string]string{memdir.IndexFile: index, "user_role.md": topicText("Role", "Senior Go engineer", "user")})
	edited := topicText("Role", "deploy key "+oneLineKey, "user")
	h.write("user_role.md", edited)
	h.write("reference_prod_key.md", topicText("Prod key", oneLineKey, "reference"))
	var problems []memdir.Finding
	for len(problems) < 2 {
		problems = append(problems, h.next(5*time.Second).Result.Problems...)
	}
	for _, p := range problems {
		if p.Kind != "secret" || !strings.Contains(p.Msg, "private key block") {
			t.Errorf("problem %+v, want a secret (private key block)", p)
		}
	}
	if got := h.read("user_role.md"); got != edited {
		t.Errorf("the person's file was rewritten:\n%s", got)
	}
	if got := h.read(memdir.IndexFile); got != index {
		t.Errorf("MEMORY.md changed:\n%s\nwant:\n%s", got, index)
	}
	for _, out := range []string{h.log.String(), h.read(".memdir/" + LogName)} {
		if strings.Contains(out, "MIIE") || !strings.Contains(out, "problem: reference_prod_key.md:") {
			t.Errorf("log does not report the file, or shows the key:\n%s", out)
		}
	}
}
