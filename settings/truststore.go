package settings

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/gofrs/flock"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/untrusted"
)

// TrustFile is the file in memdir's home that records which projects'
// settings files the person trusts, as direnv's allow list does: a project
// root and the SHA-256 of its .memdir.yaml. A changed file is untrusted
// until trusted again.
const TrustFile = "trusted.json"

// TrustRecord is one trusted project settings file.
type TrustRecord struct {
	// Root is the project's canonical root.
	Root string `json:"root"`
	// SHA256 is the hex digest of the trusted content of <root>/.memdir.yaml.
	SHA256 string `json:"sha256"`
	// Trusted is when the person trusted it.
	Trusted time.Time `json:"trusted"`
}

// trustLockTimeout bounds the wait for another memdir writing the trust
// list or a settings file.
const trustLockTimeout = 10 * time.Second

// ReadTrust returns the trust records kept in home, sorted by root. A
// missing file is an empty list; a damaged one is an error, so that
// nothing is trusted by accident.
func ReadTrust(home string) ([]TrustRecord, error) {
	path := filepath.Join(home, TrustFile)
	data, err := untrusted.ReadFile(path, "", untrusted.MaxSettings)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read trust list: %w", err)
	}
	var recs []TrustRecord
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	if err := json.Unmarshal(data, &recs); err != nil {
		return nil, fmt.Errorf("%s: not a memdir trust list (%v); remove it and trust your projects again", path, err)
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].Root < recs[j].Root })
	return recs, nil
}

// IsTrusted reports whether home's trust list holds root with the digest of
// data. Any problem reading the list means "not trusted".
func IsTrusted(home, root string, data []byte) bool {
	if home == "" || root == "" {
		return false
	}
	recs, err := ReadTrust(home)
	if err != nil {
		return false
	}
	sum := Digest(data)
	for _, r := range recs {
		if r.Root == root && r.SHA256 == sum {
			return true
		}
	}
	return false
}

// Trust records that the person trusts <root>/.memdir.yaml as it is now
// (data is its content), replacing an earlier record for root.
func Trust(home, root string, data []byte, now time.Time) (TrustRecord, error) {
	rec := TrustRecord{Root: root, SHA256: Digest(data), Trusted: now.UTC().Truncate(time.Second)}
	err := updateTrust(home, func(recs []TrustRecord) []TrustRecord {
		return append(dropRoot(recs, root), rec)
	})
	return rec, err
}

// Revoke removes root from the trust list and reports whether it was there.
func Revoke(home, root string) (bool, error) {
	found := false
	err := updateTrust(home, func(recs []TrustRecord) []TrustRecord {
		kept := dropRoot(recs, root)
		found = len(kept) < len(recs)
		return kept
	})
	return found, err
}

func dropRoot(recs []TrustRecord, root string) []TrustRecord {
	out := recs[:0:0]
	for _, r := range recs {
		if r.Root != root {
			out = append(out, r)
		}
	}
	return out
}

// updateTrust re-reads the trust list under home's lock, applies change and
// writes the result atomically.
func updateTrust(home string, change func([]TrustRecord) []TrustRecord) error {
	if home == "" {
		return errors.New("trust: the memdir home is unknown: set MEMDIR_HOME")
	}
	if err := os.MkdirAll(home, 0o755); err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	unlock, err := lockDir(home)
	if err != nil {
		return err
	}
	defer unlock()
	recs, err := ReadTrust(home)
	if err != nil {
		return err
	}
	recs = change(recs)
	sort.Slice(recs, func(i, j int) bool { return recs[i].Root < recs[j].Root })
	data, err := json.MarshalIndent(recs, "", "  ")
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	return atomicfile.WriteFile(filepath.Join(home, TrustFile), append(data, '\n'), 0o600)
}

// lockDir takes an exclusive lock on the directory dir itself, so that no
// lock file appears beside a settings file that may be committed. Every
// read-modify-write of a settings file or the trust list holds it.
func lockDir(dir string) (func(), error) {
	fl := flock.New(dir, flock.SetFlag(os.O_RDONLY))
	ctx, cancel := context.WithTimeout(context.Background(), trustLockTimeout)
	defer cancel()
	ok, err := fl.TryLockContext(ctx, 5*time.Millisecond)
	if err != nil && ctx.Err() == nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if !ok {
		return nil, fmt.Errorf("lock %s: still held by another memdir after %s; try again", dir, trustLockTimeout)
	}
	return func() { _ = fl.Unlock() }, nil
}
