package settings

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/memdir/memdir/untrusted"
)

// Managed settings file, and the environment variable that replaces it.
const (
	ManagedPath    = "/etc/memdir/config.yaml"
	ManagedPathEnv = "MEMDIR_MANAGED_CONFIG"
)

// File names of the user, project and local layers.
const (
	UserFile    = "config.yaml"
	ProjectFile = ".memdir.yaml"
	LocalFile   = ".memdir.local.yaml"
)

// Options says where Load looks.
type Options struct {
	// Root is the project root; "" means there are no project files.
	Root string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Flags maps keys to values given on the command line.
	Flags map[string]string
	// UserHome replaces "~" in paths; "" means os.UserHomeDir().
	UserHome string
	// Cwd resolves relative paths given in the environment or in flags;
	// "" means os.Getwd().
	Cwd string
	// Committed reports whether a file is committed to the project's
	// repository (nil: never). A local settings file that is committed
	// came with the repository, so it is as untrusted as the project file.
	Committed func(path string) bool
}

// Settings is the resolved cascade. It is read-only and safe for
// concurrent use.
type Settings struct {
	opts     Options
	values   map[string]Value
	warnings []Warning
	locked   map[string]bool
	profiles map[string]*profile
	files    [Flag + 1]string
	// trustHome is the home decided without the project file: where the
	// trust list is.
	trustHome string
	// ignored lists the project settings dropped for want of trust.
	ignored []Ignored
}

// Load resolves every setting. It fails with an *InvalidError for a value a
// key does not allow, a *SyntaxError for a file that is not YAML, or an
// *UnknownKeyError for an unknown key in Options.Flags. Missing files are
// skipped; an empty environment variable counts as unset.
func Load(opts Options) (*Settings, error) {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	s := &Settings{opts: opts, locked: map[string]bool{}}
	s.files[Managed] = managedPath(opts.Getenv)
	if opts.Root != "" {
		s.files[Project] = filepath.Join(opts.Root, ProjectFile)
		s.files[Local] = filepath.Join(opts.Root, LocalFile)
	}
	managed, err := readLayer(Managed, s.files[Managed], "")
	if err != nil {
		return nil, err
	}
	project, err := readLayer(Project, s.files[Project], opts.Root)
	if err != nil {
		return nil, err
	}
	local, err := readLayer(Local, s.files[Local], opts.Root)
	if err != nil {
		return nil, err
	}
	s.distrustCommittedLocal(local)
	env, err := envLayer(opts.Getenv)
	if err != nil {
		return nil, err
	}
	flags, err := flagLayer(opts.Flags)
	if err != nil {
		return nil, err
	}
	// The trust list lives in a home the project file cannot move.
	s.apply(managed, local, env, flags)
	s.trustHome = s.Home()
	s.distrust(project)
	// Home first, without the user file: the user file lives in home.
	s.apply(managed, project, local, env, flags)
	s.files[User] = filepath.Join(s.Home(), UserFile)
	user, err := readLayer(User, s.files[User], "")
	if err != nil {
		return nil, err
	}
	if e, ok := user.values["home"]; ok {
		user.warn(e.line, "home is ignored in the user settings file, which lives in home; set MEMDIR_HOME, or home in the managed or local settings")
		delete(user.values, "home")
	}
	s.apply(managed, user, project, local, env, flags)
	if len(s.ignored) > 0 {
		s.warnings = append(s.warnings, untrustedNotice(project.file, s.ignored))
	}
	return s, nil
}

// distrustCommittedLocal drops the sensitive settings of a local file that
// is committed to the repository: whoever wrote the repository wrote it,
// and trust is given to .memdir.yaml only.
func (s *Settings) distrustCommittedLocal(local *layerData) {
	if local.raw == nil || s.opts.Committed == nil || !s.opts.Committed(local.file) {
		return
	}
	ignored := local.sensitive(s.opts.Root, s.userHome())
	if len(ignored) == 0 {
		return
	}
	local.drop(ignored)
	keys := make([]string, 0, len(ignored))
	for _, ig := range ignored {
		keys = append(keys, ig.Key)
	}
	local.warn(0, fmt.Sprintf("committed to the repository, so it is not yours alone: %s (commands or paths outside the project) %s ignored; untrack it (git rm --cached) to use it",
		strings.Join(keys, ", "), plural(len(keys), "is", "are")))
}

// distrust drops the settings of the project layer that run a command or
// widen access unless the person trusts the file as it is.
func (s *Settings) distrust(project *layerData) {
	ignored := project.sensitive(s.opts.Root, s.userHome())
	if len(ignored) == 0 || IsTrusted(s.trustHome, s.opts.Root, project.raw) {
		return
	}
	s.ignored = ignored
	project.drop(ignored)
}

func managedPath(getenv func(string) string) string {
	if p := getenv(ManagedPathEnv); p != "" {
		return p
	}
	return ManagedPath
}

// readLayer reads one settings file through the untrusted-file owner
// (inside the directory within, when it is not ""); a missing file sets
// nothing, and so does one refused as a link out of within, a special
// file or one over untrusted.MaxSettings, with a warning: a hostile clone
// must not stop memdir in its directory.
func readLayer(layer Layer, file, within string) (*layerData, error) {
	if file == "" {
		return newLayerData(layer, file), nil
	}
	data, err := untrusted.ReadFile(file, within, untrusted.MaxSettings)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) && layer == Managed {
		return newLayerData(layer, file), nil
	}
	if ue := (*untrusted.Error)(nil); errors.As(err, &ue) {
		d := newLayerData(layer, file)
		d.warn(0, "not read: "+ue.Reason())
		return d, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s settings: %w", layer, err)
	}
	return parseFile(layer, file, data)
}

func envLayer(getenv func(string) string) (*layerData, error) {
	d := newLayerData(Env, "")
	for _, k := range registered() {
		if k.Env == "" {
			continue
		}
		raw := getenv(k.Env)
		if raw == "" {
			continue
		}
		v, err := normalize(k.Key, raw)
		if err != nil {
			return nil, withFile(err, k.Env)
		}
		d.values[k.Key] = entry{value: v}
	}
	return d, nil
}

func flagLayer(flags map[string]string) (*layerData, error) {
	d := newLayerData(Flag, "")
	for key, raw := range flags {
		v, err := normalize(key, raw)
		if err != nil {
			return nil, err
		}
		d.values[key] = entry{value: v}
	}
	return d, nil
}

func withFile(err error, file string) error {
	var ie *InvalidError
	if errors.As(err, &ie) {
		ie.File = file
	}
	return err
}

// apply resets s and merges the layers in order. The first layer must be
// the managed one: its locks stop every later layer.
func (s *Settings) apply(layers ...*layerData) {
	s.warnings = s.warnings[:0]
	s.profiles = map[string]*profile{}
	s.values = make(map[string]Value, len(registered()))
	for _, k := range registered() {
		if k.Kind != KindStructured {
			s.values[k.Key] = Value{Key: k.Key, Value: k.Default, Origin: Origin{Layer: Default}}
		}
	}
	for key := range layers[0].locked {
		s.locked[key] = true
	}
	for _, d := range layers {
		s.warnings = append(s.warnings, d.warnings...)
		for _, key := range sortedKeys(d.values) {
			e := d.values[key]
			if s.blocked(d, key, e.line) {
				continue
			}
			file := d.file
			if d.layer == Env {
				file = byKey()[key].Env
			}
			s.values[key] = Value{Key: key, Value: e.value, Origin: Origin{Layer: d.layer, File: file, Line: e.line}}
		}
		if !s.blocked(d, ProfilesKey, 0) {
			s.mergeProfiles(d)
		}
	}
	for key := range s.locked {
		if v, ok := s.values[key]; ok {
			v.Origin.Locked = true
			s.values[key] = v
		}
	}
}

// blocked reports whether a lock stops layer d from setting key, and warns
// when it does.
func (s *Settings) blocked(d *layerData, key string, line int) bool {
	if d.layer <= Managed || !s.locked[key] {
		return false
	}
	if key == ProfilesKey && len(d.profiles) > 0 {
		line = d.profiles[0].Line
	} else if key == ProfilesKey {
		return true
	}
	file := d.file
	switch d.layer {
	case Env:
		file = byKey()[key].Env
	case Flag:
		file = "flag"
	}
	s.warnings = append(s.warnings, Warning{File: file, Line: line,
		Message: fmt.Sprintf("%s is locked by the managed settings (%s); value ignored", key, s.files[Managed])})
	return true
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Get returns the value of key, or "" for an unknown key.
func (s *Settings) Get(key string) string { return s.values[key].Value }

// Lookup returns the value of key with its origin. For profiles the value
// lists the profile names, comma-separated.
func (s *Settings) Lookup(key string) (Value, bool) {
	if key == ProfilesKey {
		return s.profilesValue(), true
	}
	v, ok := s.values[key]
	return v, ok
}

// All returns every known key, sorted, with its value and origin.
func (s *Settings) All() []Value {
	out := make([]Value, 0, len(registered()))
	for _, k := range registered() {
		v, _ := s.Lookup(k.Key)
		out = append(out, v)
	}
	return out
}

// Warnings returns the problems found while loading, in layer order.
func (s *Settings) Warnings() []Warning { return append([]Warning(nil), s.warnings...) }

// Ignored returns the project settings that were not honoured because the
// project's settings file is not trusted.
func (s *Settings) Ignored() []Ignored { return append([]Ignored(nil), s.ignored...) }

// TrustHome returns the home that holds the trust list: home as the
// managed, local, environment and flag layers decide it, never the project
// file, which must not choose where its own trust is recorded.
func (s *Settings) TrustHome() string { return s.trustHome }

// Locked reports whether the managed file locks key, so that `config set`
// can refuse to write it.
func (s *Settings) Locked(key string) bool { return s.locked[key] }

// File returns the settings file of a file layer as Load used it ("" for
// the project and local layers without a root, and for other layers).
func (s *Settings) File(layer Layer) string {
	if layer < Managed || layer > Local {
		return ""
	}
	return s.files[layer]
}

// LayerPath returns the settings file of a file layer: managed (honouring
// MEMDIR_MANAGED_CONFIG in the process environment), user (in home),
// project and local (in root).
func LayerPath(layer Layer, root, home string) (string, error) {
	switch layer {
	case Managed:
		return managedPath(os.Getenv), nil
	case User:
		if home == "" {
			return "", errors.New("user settings: no home")
		}
		return filepath.Join(home, UserFile), nil
	case Project, Local:
		if root == "" {
			return "", fmt.Errorf("%s settings: no project root", layer)
		}
		name := ProjectFile
		if layer == Local {
			name = LocalFile
		}
		return filepath.Join(root, name), nil
	}
	return "", fmt.Errorf("%s settings: not a file layer", layer)
}
