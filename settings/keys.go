package settings

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/memdir/memdir/typesx"
)

// Kind is the type of a setting's value.
type Kind int

// The kinds of setting.
const (
	KindString     Kind = iota // any text
	KindPath                   // a file system path; "~" is expanded
	KindBool                   // true or false
	KindEnum                   // one of KeyInfo.Values
	KindNumber                 // a non-negative number
	KindDuration               // a non-negative Go duration such as 10s
	KindSchedule               // a cron schedule, or empty for none
	KindStructured             // a YAML mapping, kept as nodes (profiles)
	KindTypes                  // memory types: a YAML list or comma-separated text, possibly empty
)

var kindNames = [...]string{"string", "path", "bool", "enum", "number", "duration", "schedule", "structured", "types"}

// String returns the kind's name, such as "bool".
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("kind(%d)", int(k))
	}
	return kindNames[k]
}

// KeyInfo describes one setting.
type KeyInfo struct {
	Key     string
	Kind    Kind
	Default string
	// Values lists the allowed values of an enum.
	Values []string
	// Allowed describes the allowed values for messages.
	Allowed string
	// Env is the environment variable that sets the key, or "" for none.
	Env  string
	Help string
}

// ProfilesKey is the structured key holding instruction-file profiles.
const ProfilesKey = "profiles"

var registry = []KeyInfo{
	{Key: "capture.team_types", Kind: KindTypes, Default: "",
		Help: "memory types whose captured notes go to team memory, e.g. [project, reference]"},
	{Key: "context.agent", Kind: KindString, Default: "generic", Env: "MEMDIR_AGENT",
		Help: "instruction-file profile of the agent memdir writes context for"},
	{Key: "context.agent_id", Kind: KindString, Default: "agent",
		Help: "name the agent is recorded under"},
	{Key: "context.allow_outside_imports", Kind: KindBool, Default: "false",
		Help: "let instruction files import files outside the project"},
	{Key: "dir", Kind: KindPath, Default: "", Env: "MEMDIR_DIR",
		Help: "memory directory; a relative path is relative to the project root"},
	{Key: "dream.at_session_start", Kind: KindBool, Default: "true",
		Help: "in log mode, a session-start hook starts an overdue dream in the background"},
	{Key: "dream.distiller", Kind: KindString, Default: "",
		Help: "external distiller command line; empty uses the built-in distiller"},
	{Key: "dream.distiller_timeout", Kind: KindDuration, Default: "10m", Help: "how long an external distiller may run before it and its children are killed; 0 is 10m"},
	{Key: "dream.min_hours", Kind: KindNumber, Default: "0",
		Help: "hours that must pass between two dreams"},
	{Key: "dream.schedule", Kind: KindSchedule, Default: "0 3 * * *",
		Help: "cron schedule of the nightly dream; empty for none"},
	{Key: "embeddings.api_key_env", Kind: KindString, Default: "",
		Help: "name of the environment variable holding the embedding server's API key (never the key itself)"},
	{Key: "embeddings.model", Kind: KindString, Default: "",
		Help: "embedding model the server runs, e.g. nomic-embed-text"},
	{Key: "embeddings.timeout", Kind: KindDuration, Default: "1s",
		Help: "how long a search waits for the embedding server before it answers from words alone"},
	{Key: "embeddings.url", Kind: KindString, Default: "",
		Help: "base URL of an OpenAI-compatible (/v1/embeddings) or Ollama (/api/embed) server; empty for none"},
	{Key: "git", Kind: KindBool, Default: "false", Env: "MEMDIR_GIT",
		Help: "keep the memory directory under git"},
	{Key: "git.autocommit", Kind: KindBool, Default: "false",
		Help: "commit every change to the memory directory"},
	{Key: "home", Kind: KindPath, Default: "~/.memdir", Env: "MEMDIR_HOME",
		Help: "memdir's home: user settings and per-project memory"},
	{Key: "lock.timeout", Kind: KindDuration, Default: "10s",
		Help: "how long to wait for the memory directory's lock"},
	{Key: "mode", Kind: KindEnum, Default: "live", Values: []string{"live", "log"}, Env: "MEMDIR_MODE",
		Help: "live writes topic files at once; log appends to daily logs for dream"},
	{Key: ProfilesKey, Kind: KindStructured,
		Help: "user-defined instruction-file profiles, by name"},
	{Key: "recall.budget", Kind: KindNumber, Default: "1000",
		Help: "characters memdir recall may add to a prompt"},
	{Key: "recall.enabled", Kind: KindBool, Default: "true",
		Help: "memdir recall (the prompt hook) adds relevant memories to prompts"},
	{Key: "sync.at_session_start", Kind: KindBool, Default: "true",
		Help: "with a sync remote set, a session-start hook starts memdir sync in the background (from your own settings only)"},
	{Key: "team.dir", Kind: KindString, Default: ".memdir/team",
		Help: "team memory directory, relative to the project root; it must stay inside the project"},
	{Key: "team.remote", Kind: KindString, Default: "",
		Help: "a git remote proposed for team memory; memdir never pushes to or pulls from it on its own"},
}

// byKey indexes the registry by key. It completes each entry (its
// environment variable and its allowed values) on first use, so that a
// command that reads no setting pays nothing for it at start-up.
var byKey = sync.OnceValue(func() map[string]*KeyInfo {
	m := make(map[string]*KeyInfo, len(registry))
	for i := range registry {
		k := &registry[i]
		if k.Env == "" && k.Kind != KindStructured {
			k.Env = "MEMDIR_" + strings.ToUpper(strings.ReplaceAll(k.Key, ".", "_"))
		}
		k.Allowed = allowedText(k)
		m[k.Key] = k
	}
	return m
})

// registered is the registry, completed.
func registered() []KeyInfo {
	byKey()
	return registry
}

func allowedText(k *KeyInfo) string {
	switch k.Kind {
	case KindPath:
		return "a path"
	case KindBool:
		return "true, false"
	case KindEnum:
		return strings.Join(k.Values, ", ")
	case KindNumber:
		return "a number >= 0"
	case KindDuration:
		return "a Go duration >= 0 such as 10s or 1m30s"
	case KindSchedule:
		return `a cron schedule such as "0 3 * * *" or @daily, or empty`
	case KindStructured:
		return "a mapping of profile names"
	case KindTypes:
		return "memory types (" + typesx.Names() + "), as a list or comma-separated, or empty"
	}
	return "any text"
}

// Keys returns the registry of settings, sorted by key.
func Keys() []KeyInfo {
	out := make([]KeyInfo, len(registered()))
	for i, k := range registered() {
		out[i] = k
		out[i].Values = slices.Clone(k.Values)
	}
	return out
}

// Info returns the registry entry of key.
func Info(key string) (KeyInfo, bool) {
	k, ok := byKey()[key]
	if !ok {
		return KeyInfo{}, false
	}
	return *k, true
}

func keyNames() []string {
	names := make([]string, len(registered()))
	for i, k := range registered() {
		names[i] = k.Key
	}
	return names
}

// isPrefix reports whether p is the first part of a dotted key ("dream").
func isPrefix(p string) bool {
	for _, k := range registered() {
		if strings.HasPrefix(k.Key, p+".") {
			return true
		}
	}
	return false
}

// Validate checks value for key. It returns an *UnknownKeyError for an
// unknown key, an error matching ErrStructured for profiles, and an
// *InvalidError (without file or line) for a value the key does not allow.
func Validate(key, value string) error {
	_, err := normalize(key, value)
	return err
}

// normalize validates value for key and returns its canonical form:
// bools become "true"/"false", enums lowercase, others are trimmed.
func normalize(key, value string) (string, error) {
	k, ok := byKey()[key]
	if !ok {
		return "", &UnknownKeyError{Key: key}
	}
	v, ok := normalizeKind(k, value)
	if !ok {
		if k.Kind == KindStructured {
			return "", fmt.Errorf("%s: %w: edit the settings file", key, ErrStructured)
		}
		return "", &InvalidError{Key: key, Value: value, Allowed: k.Allowed}
	}
	return v, nil
}

func normalizeKind(k *KeyInfo, value string) (string, bool) {
	v := strings.TrimSpace(value)
	switch k.Kind {
	case KindBool:
		b, ok := parseBool(v)
		return strconv.FormatBool(b), ok
	case KindEnum:
		v = strings.ToLower(v)
		return v, slices.Contains(k.Values, v)
	case KindNumber:
		f, err := strconv.ParseFloat(v, 64)
		return v, err == nil && f >= 0 && !math.IsInf(f, 0)
	case KindDuration:
		d, err := time.ParseDuration(v)
		return v, err == nil && d >= 0
	case KindSchedule:
		return v, v == "" || validSchedule(v)
	case KindStructured:
		return "", false
	case KindTypes:
		return normalizeTypes(v)
	}
	return v, !strings.ContainsRune(v, 0)
}

// normalizeTypes reads a list of memory types ("project, reference", or
// "[project, reference]" as given to `memdir config set`) and returns it
// comma-separated, each type once, in its canonical spelling.
func normalizeTypes(v string) (string, bool) {
	v = strings.TrimSuffix(strings.TrimPrefix(v, "["), "]")
	var out []string
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		t, err := typesx.Parse(f)
		if err != nil {
			return v, false
		}
		if !slices.Contains(out, string(t)) {
			out = append(out, string(t))
		}
	}
	return strings.Join(out, ","), true
}

// Types returns a KindTypes setting as memory types; nil when empty.
func (s *Settings) Types(key string) []typesx.Type {
	var out []typesx.Type
	for _, f := range strings.Split(s.Get(key), ",") {
		if t, err := typesx.Parse(f); err == nil {
			out = append(out, t)
		}
	}
	return out
}

func parseBool(s string) (bool, bool) {
	switch strings.ToLower(s) {
	case "true", "yes", "on", "1":
		return true, true
	case "false", "no", "off", "0":
		return false, true
	}
	return false, false
}

// validSchedule reports whether s is a cron schedule that fires at least
// once. The cron parser panics on some inputs ("TZ=0"), so it recovers.
func validSchedule(s string) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	sched, err := cron.ParseStandard(s)
	if err != nil {
		return false
	}
	return !sched.Next(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)).IsZero()
}
