package secrets

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestZZCorpus(t *testing.T) {
	list, _ := os.ReadFile(os.Getenv("CORPUS"))
	files, bytes, hits := 0, 0, 0
	kinds := map[string]int{}
	for _, f := range strings.Fields(string(list)) {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		files++
		bytes += len(b)
		for _, x := range Scan(string(b)) {
			hits++
			kinds[x.Kind]++
			if os.Getenv("SHOW") != "" {
				fmt.Println(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), x.Line, x.Kind, x.Redacted)
			}
		}
	}
	fmt.Println("files", files, "bytes", bytes, "findings", hits, kinds)
}
