package settings

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// profile is one instruction-file profile and the layer that defined it.
type profile struct {
	node   *yaml.Node
	origin Origin
}

// mergeProfiles adds d's profiles; a later layer replaces a whole profile
// of the same name.
func (s *Settings) mergeProfiles(d *layerData) {
	for _, m := range d.profiles {
		for i := 0; i+1 < len(m.Content); i += 2 {
			kn := m.Content[i]
			if kn.Kind != yaml.ScalarNode {
				continue
			}
			s.profiles[kn.Value] = &profile{
				node:   resolveAlias(m.Content[i+1]),
				origin: Origin{Layer: d.layer, File: d.file, Line: kn.Line},
			}
		}
	}
}

// Profiles returns the merged instruction-file profiles by name, as raw
// YAML nodes for the package that owns their format. The nodes are shared:
// do not modify them.
func (s *Settings) Profiles() map[string]*yaml.Node {
	out := make(map[string]*yaml.Node, len(s.profiles))
	for name, p := range s.profiles {
		out[name] = p.node
	}
	return out
}

// ProfileOrigin returns where the profile called name was defined.
func (s *Settings) ProfileOrigin(name string) (Origin, bool) {
	p, ok := s.profiles[name]
	if !ok {
		return Origin{}, false
	}
	return p.origin, true
}

func (s *Settings) profilesValue() Value {
	v := Value{Key: ProfilesKey, Origin: Origin{Layer: Default, Locked: s.locked[ProfilesKey]}}
	names := sortedKeys(s.profiles)
	for _, name := range names {
		if o := s.profiles[name].origin; o.Layer >= v.Origin.Layer {
			v.Origin = Origin{Layer: o.Layer, File: o.File, Locked: v.Origin.Locked}
		}
	}
	v.Value = strings.Join(names, ", ")
	return v
}

// Bool returns a bool setting; false for an unknown key.
func (s *Settings) Bool(key string) bool {
	b, _ := parseBool(s.Get(key))
	return b
}

// Duration returns a duration setting; 0 for an unknown key.
func (s *Settings) Duration(key string) time.Duration {
	d, _ := time.ParseDuration(s.Get(key))
	return d
}

// Float returns a number setting; 0 for an unknown key.
func (s *Settings) Float(key string) float64 {
	f, _ := strconv.ParseFloat(s.Get(key), 64)
	return f
}

// Home returns memdir's home directory, "~" expanded and absolute.
func (s *Settings) Home() string { return s.Path("home") }

// Path returns a path setting, or "" when it is empty. A leading "~" is
// the user's home directory. A relative path from the environment or a
// flag is relative to Options.Cwd; one from a settings file or a default
// is relative to Options.Root (to Cwd without a root).
func (s *Settings) Path(key string) string {
	v, ok := s.values[key]
	if !ok || v.Value == "" {
		return ""
	}
	p := v.Value
	if p == "~" || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, "~"+string(filepath.Separator)) {
		home := s.userHome()
		if home == "" {
			return p
		}
		p = filepath.Join(home, p[1:])
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	base := s.opts.Root
	if v.Origin.Layer >= Env || base == "" {
		base = s.cwd()
	}
	return filepath.Join(base, p)
}

func (s *Settings) userHome() string {
	if s.opts.UserHome != "" {
		return s.opts.UserHome
	}
	h, _ := os.UserHomeDir()
	return h
}

func (s *Settings) cwd() string {
	if s.opts.Cwd != "" {
		return s.opts.Cwd
	}
	wd, _ := os.Getwd()
	return wd
}
