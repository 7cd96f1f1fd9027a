package canonical

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"
)

// fakeEnv is a Getenv over a map.
func fakeEnv(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestSlug(t *testing.T) {
	long := "/" + strings.Repeat("a", 250)
	tests := []struct {
		name, root, want string
	}{
		{"claude code example", "/home/u/my.app", "-home-u-my-app"},
		{"dashes and underscores", "/srv/web-client_v2", "-srv-web-client-v2"},
		{"windows", `C:\Users\u\proj`, "C--Users-u-proj"},
		{"unicode BMP is one dash each", "/home/é/日本", "-home-----"},
		{"astral is two dashes like UTF-16", "/x/😀", "-x---"},
		{"exactly 200 kept", "/" + strings.Repeat("b", 199), "-" + strings.Repeat("b", 199)},
		{"long is cut and hashed", long, "-" + strings.Repeat("a", 199) + "-feo44x"}, // node: Claude Code's jCe,
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Slug(tc.root); got != tc.want {
				t.Errorf("Slug(%q) = %q, want %q", tc.root, got, tc.want)
			}
		})
	}
}

func TestSlugLongDistinct(t *testing.T) {
	prefix := "/" + strings.Repeat("p", 220)
	a, b := Slug(prefix+"/one"), Slug(prefix+"/two")
	if a == b {
		t.Errorf("Slug of two long roots sharing 200 chars both gave %q, want distinct", a)
	}
	if a != Slug(prefix+"/one") {
		t.Errorf("Slug is not deterministic")
	}
	// Same slug body, different root: the hash must tell them apart.
	c, d := Slug(prefix+"/x.y"), Slug(prefix+"/x-y")
	if c == d {
		t.Errorf("Slug(.../x.y) == Slug(.../x-y) == %q, want distinct for long roots", c)
	}
}

func TestHome(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		setting string
		want    string
		err     error
	}{
		{"default", map[string]string{"HOME": "/h"}, "", "/h/.memdir", nil},
		{"setting with tilde", map[string]string{"HOME": "/h"}, "~/.claude", "/h/.claude", nil},
		{"env beats setting", map[string]string{"HOME": "/h", "MEMDIR_HOME": "~/mh"}, "/s", "/h/mh", nil},
		{"absolute setting cleaned", map[string]string{}, "/s//x/", "/s/x", nil},
		{"no HOME", map[string]string{}, "", "", ErrNoHome},
	}
	if runtime.GOOS == "windows" {
		t.Skip("unix paths")
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Home(fakeEnv(tc.env), tc.setting)
			if got != tc.want || !errors.Is(err, tc.err) {
				t.Errorf("Home = %q, %v; want %q, %v", got, err, tc.want, tc.err)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix paths")
	}
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	const root, slug = "/r/my.app", "-r-my-app"
	h := map[string]string{"HOME": "/h"}
	with := func(kv ...string) map[string]string {
		m := map[string]string{"HOME": "/h"}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name string
		opts Options
		env  map[string]string
		dir  string
		home string
		src  string
	}{
		{"default", Options{}, h, "/h/.memdir/projects/" + slug + "/memory", "/h/.memdir", SourceDefault},
		{"MEMDIR_HOME", Options{HomeSetting: "/s"}, with("MEMDIR_HOME", "/mh"), "/mh/projects/" + slug + "/memory", "/mh", SourceDefault},
		{"home setting like claude", Options{HomeSetting: "~/.claude"}, h, "/h/.claude/projects/" + slug + "/memory", "/h/.claude", SourceDefault},
		{"dir setting relative to root", Options{DirSetting: "docs/memory"}, h, "/r/my.app/docs/memory", "/h/.memdir", SourceSetting},
		{"dir setting absolute", Options{DirSetting: "/m/"}, h, "/m", "/h/.memdir", SourceSetting},
		{"dir setting tilde", Options{DirSetting: "~/m"}, h, "/h/m", "/h/.memdir", SourceSetting},
		{"env beats setting", Options{DirSetting: "/s"}, with("MEMDIR_DIR", "/e"), "/e", "/h/.memdir", SourceEnv},
		{"env relative to cwd", Options{}, with("MEMDIR_DIR", "e"), filepath.Join(cwd, "e"), "/h/.memdir", SourceEnv},
		{"flag beats env", Options{DirFlag: "/f", DirSetting: "/s"}, with("MEMDIR_DIR", "/e"), "/f", "/h/.memdir", SourceFlag},
		{"flag relative to cwd", Options{DirFlag: "f/../g"}, h, filepath.Join(cwd, "g"), "/h/.memdir", SourceFlag},
		{"flag needs no HOME", Options{DirFlag: "/f"}, map[string]string{}, "/f", "", SourceFlag},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Root = root
			tc.opts.Getenv = fakeEnv(tc.env)
			got, err := Resolve(tc.opts)
			if err != nil {
				t.Fatalf("Resolve: %v", err)
			}
			want := Location{Dir: tc.dir, Root: root, Slug: slug, Home: tc.home, Source: tc.src}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Resolve mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestResolveErrors(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		want error
	}{
		{"relative root", Options{Root: "r", Getenv: fakeEnv(map[string]string{"HOME": "/h"})}, ErrNoRoot},
		{"empty root", Options{Getenv: fakeEnv(map[string]string{"HOME": "/h"})}, ErrNoRoot},
		{"default without HOME", Options{Root: "/r", Getenv: fakeEnv(nil)}, ErrNoHome},
		{"tilde setting without HOME", Options{Root: "/r", DirSetting: "~/m", Getenv: fakeEnv(map[string]string{"MEMDIR_HOME": "/mh"})}, ErrNoHome},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Resolve(tc.opts)
			if !errors.Is(err, tc.want) {
				t.Errorf("Resolve = %+v, %v; want error %v", got, err, tc.want)
			}
		})
	}
}

func TestClaimRoot(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	if err := CheckRoot(dir, "/a"); err != nil {
		t.Fatalf("CheckRoot on a missing dir: %v, want nil", err)
	}
	for range 2 { // idempotent
		if err := ClaimRoot(dir, "/a"); err != nil {
			t.Fatalf("ClaimRoot(/a): %v", err)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, ".memdir", "root"))
	if err != nil || string(data) != "/a\n" {
		t.Fatalf("root record = %q, %v; want %q", data, err, "/a\n")
	}
	if err := CheckRoot(dir, "/a"); err != nil {
		t.Errorf("CheckRoot(/a) after claim: %v, want nil", err)
	}
	for name, check := range map[string]func(string, string) error{"CheckRoot": CheckRoot, "ClaimRoot": ClaimRoot} {
		err := check(dir, "/b")
		var mm *RootMismatchError
		if !errors.As(err, &mm) {
			t.Fatalf("%s(/b) = %v, want *RootMismatchError", name, err)
		}
		want := RootMismatchError{Dir: dir, Recorded: "/a", Root: "/b"}
		if diff := cmp.Diff(want, *mm); diff != "" {
			t.Errorf("%s(/b) mismatch (-want +got):\n%s", name, diff)
		}
		for _, s := range []string{"/a", "/b", "--dir", "`dir`", filepath.Join(dir, ".memdir", "root")} {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s(/b) message %q does not mention %q", name, err, s)
			}
		}
	}
	if data, _ := os.ReadFile(filepath.Join(dir, ".memdir", "root")); string(data) != "/a\n" {
		t.Errorf("root record after mismatch = %q, want unchanged %q", data, "/a\n")
	}
}

// TestSlugHashClaude pins SlugHash to values computed by Claude Code
// 2.1.197's own function (Math.abs(jCe(path)).toString(36)) under node.
func TestSlugHashClaude(t *testing.T) {
	tests := map[string]string{
		"/home/u/" + strings.Repeat("a", 250): "bkw3mj",
		"/x/é😀/" + strings.Repeat("b", 200):   "okua0n",
		"":                                    "0",
		"/tmp/zz":                             "yueyft",
	}
	for root, want := range tests {
		if got := SlugHash(root); got != want {
			t.Errorf("SlugHash(%.12q) = %q, want %q", root, got, want)
		}
	}
	long := "/home/u/" + strings.Repeat("a", 250)
	if got, want := Slug(long), Slug(long)[:MaxSlugLen]+"-bkw3mj"; got != want {
		t.Errorf("Slug = %q, want %q", got, want)
	}
}

func FuzzSlugHash(f *testing.F) {
	f.Add("/home/u/app")
	f.Add("é😀\x80")
	f.Fuzz(func(t *testing.T, root string) {
		// Oracle: the same hash computed in int64 and reduced mod 2^32.
		var h int64
		for _, c := range utf16.Encode([]rune(root)) {
			h = (h*31 + int64(c)) & 0xffffffff
		}
		if h >= 1<<31 {
			h -= 1 << 32
		}
		if h < 0 {
			h = -h
		}
		if got := SlugHash(root); got != strconv.FormatInt(h, 36) {
			t.Fatalf("SlugHash(%q) = %s, oracle %s", root, got, strconv.FormatInt(h, 36))
		}
	})
}
