package memsync

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/memdir/memdir/untrusted"
)

// safeConfig is passed to every git memdir runs on its own sync
// repository. The repository is memdir's alone, but the remote's content
// is data, and no setting may make a sync run a command of anyone's but
// the user's own (their ssh and credential helpers come from their global
// config, which git still reads).
var safeConfig = []string{
	"-c", "core.hooksPath=/dev/null",
	"-c", "core.fsmonitor=false",
	"-c", "protocol.file.allow=always",
	"-c", "protocol.ext.allow=never",
	"-c", "core.autocrlf=false",
	"-c", "gc.auto=0",
	"-c", "maintenance.auto=false",
	"-c", "fetch.recurseSubmodules=false",
	"-c", "advice.detachedHead=false",
}

// droppedEnv are the variables a caller (a git hook, say) may have set
// that would point git at another repository than memdir's.
var droppedEnv = []string{
	"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE",
	"GIT_CEILING_DIRECTORIES", "GIT_PREFIX", "GIT_QUARANTINE_PATH",
	"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
}

// git runs the user's git on memdir's own sync repository.
type git struct {
	ctx  context.Context
	repo string // the bare repository
	env  []string
}

// newGit runs git on repo; with repo "", on none (git merge-file needs
// none).
func newGit(ctx context.Context, repo string) *git {
	env := make([]string, 0, len(os.Environ())+6)
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if dropEnv(k) {
			continue
		}
		env = append(env, kv)
	}
	if repo != "" {
		env = append(env, "GIT_DIR="+repo)
	}
	env = append(env, "GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_NAME=memdir", "GIT_AUTHOR_EMAIL=memdir@localhost",
		"GIT_COMMITTER_NAME=memdir", "GIT_COMMITTER_EMAIL=memdir@localhost")
	return &git{ctx: ctx, repo: repo, env: env}
}

func dropEnv(k string) bool {
	for _, d := range droppedEnv {
		if k == d {
			return true
		}
	}
	return strings.HasPrefix(k, "GIT_CONFIG_KEY_") || strings.HasPrefix(k, "GIT_CONFIG_VALUE_")
}

func (g *git) command(args ...string) *exec.Cmd {
	cmd := exec.CommandContext(g.ctx, "git", append(append([]string{}, safeConfig...), args...)...)
	cmd.Dir = g.repo
	cmd.Env = g.env
	dieWithParent(cmd)
	return cmd
}

// run runs git with stdin and returns its stdout; a failure's error
// holds git's own message.
func (g *git) run(stdin io.Reader, args ...string) ([]byte, error) {
	cmd := g.command(args...)
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return out.Bytes(), &GitError{Args: args[0], Msg: msg, Err: err}
	}
	return out.Bytes(), nil
}

// GitError is a git command that failed: which one and what git said.
type GitError struct {
	Args string
	Msg  string
	Err  error
}

func (e *GitError) Error() string { return "git " + e.Args + ": " + e.Msg }
func (e *GitError) Unwrap() error { return e.Err }

// refs returns the commits of main and of the fetched remote main, ""
// for a ref that does not exist.
func (g *git) refs() (local, remote string, err error) {
	out, err := g.run(nil, "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/main", "refs/remotes/origin/main")
	if err != nil {
		return "", "", err
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, oid, _ := strings.Cut(line, " ")
		switch name {
		case "refs/heads/main":
			local = oid
		case "refs/remotes/origin/main":
			remote = oid
		}
	}
	return local, remote, nil
}

// tree lists the blobs of a commit by path; an empty commit id is the
// empty tree.
func (g *git) tree(commit string) (map[string]string, error) {
	files := map[string]string{}
	if commit == "" {
		return files, nil
	}
	out, err := g.run(nil, "ls-tree", "-r", "-z", "--full-tree", commit)
	if err != nil {
		return nil, err
	}
	for _, rec := range bytes.Split(out, []byte{0}) {
		meta, p, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		f := strings.Fields(string(meta))
		if len(f) == 3 && f[1] == "blob" {
			files[string(p)] = f[2]
		}
	}
	return files, nil
}

// catFile reads blobs through one `git cat-file --batch`, started on the
// first read: a sync with nothing to merge starts none.
type catFile struct {
	g   *git
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func (g *git) catFile() *catFile { return &catFile{g: g} }

func (c *catFile) start() error {
	cmd := c.g.command("cat-file", "--batch")
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git cat-file: %w", err)
	}
	c.cmd, c.in, c.out = cmd, in, bufio.NewReader(out)
	return nil
}

// blob returns the content of the blob oid.
func (c *catFile) blob(oid string) ([]byte, error) {
	if c.cmd == nil {
		if err := c.start(); err != nil {
			return nil, err
		}
	}
	if _, err := fmt.Fprintln(c.in, oid); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	head, err := c.out.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	f := strings.Fields(head)
	if len(f) != 3 || f[1] != "blob" {
		return nil, fmt.Errorf("git cat-file %s: %s", oid, strings.TrimSpace(head))
	}
	n, err := strconv.Atoi(f[2])
	if err != nil {
		return nil, fmt.Errorf("git cat-file %s: %s", oid, strings.TrimSpace(head))
	}
	if n > untrusted.MaxMemory {
		// Never held in memory: skipped in the stream, refused.
		if _, err := io.CopyN(io.Discard, c.out, int64(n)+1); err != nil {
			return nil, fmt.Errorf("git cat-file %s: %w", oid, err)
		}
		return nil, fmt.Errorf("%w (%d bytes in the remote, a memory file holds at most %d)", untrusted.ErrTooLarge, n, untrusted.MaxMemory)
	}
	data := make([]byte, n+1)
	if _, err := io.ReadFull(c.out, data); err != nil {
		return nil, fmt.Errorf("git cat-file %s: %w", oid, err)
	}
	return data[:n], nil
}

func (c *catFile) close() {
	if c.cmd == nil {
		return
	}
	c.in.Close()
	_ = c.cmd.Wait()
}
