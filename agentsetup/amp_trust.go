package agentsetup

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/memdir/memdir/untrusted"
)

// AmpServer is an MCP server as an Amp settings file defines it.
type AmpServer struct {
	// SpecHash is the sha256 Amp records when the person approves a
	// workspace server (amp.mcpTrustedServers): of the JSON text of
	// {type, command, args, env} (env keys sorted), or {type, url,
	// headers, transport} for a remote server, as JavaScript writes it.
	SpecHash string
	// Command is the program a stdio server runs.
	Command string
}

// AmpMCPServer reads the server named name from the "amp.mcpServers" of
// an Amp settings file; ok is false when the file or the server is
// missing.
func AmpMCPServer(path, name string) (s AmpServer, ok bool, err error) {
	d, err := readJSONC(path)
	if d == nil || err != nil {
		return s, false, err
	}
	n := d.lookup("amp.mcpServers", name)
	if n == nil || n.kind != '{' {
		return s, false, nil
	}
	var spec *jsWriter
	if it, _ := n.member("command"); it != nil {
		s.Command = it.val.str
		spec = &jsWriter{}
		spec.obj([]string{"type", "command", "args", "env"}, func(k string) {
			switch k {
			case "type":
				spec.str("command")
			case "command":
				spec.value(d.src, it.val)
			case "args":
				spec.valueOr(d.src, n, "args", "[]")
			case "env":
				spec.sorted(d.src, n, "env")
			}
		})
	} else {
		spec = &jsWriter{}
		spec.obj([]string{"type", "url", "headers", "transport"}, func(k string) {
			switch k {
			case "type":
				spec.str("url")
			case "url":
				spec.valueOr(d.src, n, "url", "")
			case "headers":
				spec.sorted(d.src, n, "headers")
			case "transport":
				if it, _ := n.member("transport"); it != nil && jsTruthy(d.src, it.val) {
					spec.value(d.src, it.val)
				} else {
					spec.str("http")
				}
			}
		})
	}
	sum := sha256.Sum256([]byte(spec.b.String()))
	s.SpecHash = hex.EncodeToString(sum[:])
	return s, true, nil
}

// AmpApproved reports whether Amp's user settings (userSettings) approve
// the workspace server name with the spec hash: an
// "amp.mcpTrustedServers" entry allowing it, or the workspace root in
// "amp.workspaces" with allowAllMcpServers.
func AmpApproved(userSettings, root, name, hash string) (bool, error) {
	d, err := readJSONC(userSettings)
	if d == nil || err != nil {
		return false, err
	}
	if ws := d.lookup("amp.workspaces"); ws != nil && ws.kind == '[' {
		for _, it := range ws.items {
			p, _ := it.val.member("path")
			all, _ := it.val.member("allowAllMcpServers")
			if p != nil && all != nil && p.val.str == root && d.src[all.val.start:all.val.end] == "true" {
				return true, nil
			}
		}
	}
	list := d.lookup("amp.mcpTrustedServers")
	if list == nil || list.kind != '[' {
		return false, nil
	}
	// Amp takes the first entry for the name and hash.
	for _, it := range list.items {
		n, _ := it.val.member("serverName")
		h, _ := it.val.member("specHash")
		if n != nil && h != nil && n.val.str == name && h.val.str == hash {
			a, _ := it.val.member("allow")
			return a != nil && d.src[a.val.start:a.val.end] == "true", nil
		}
	}
	return false, nil
}

// AmpUserSettings is the settings file Amp reads for the person:
// AMP_SETTINGS_FILE, else settings.json in its configuration directory,
// else settings.jsonc there when only that exists.
func AmpUserSettings(configDir string, getenv func(string) string) string {
	if getenv != nil && getenv("AMP_SETTINGS_FILE") != "" {
		return getenv("AMP_SETTINGS_FILE")
	}
	p := filepath.Join(configDir, "settings.json")
	if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
		if _, err := os.Stat(p + "c"); err == nil {
			return p + "c"
		}
	}
	return p
}

func readJSONC(path string) (*jsonDoc, error) {
	data, err := untrusted.ReadFile(path, "", untrusted.MaxSettings)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return newJSONDoc(path, string(data))
}

func jsTruthy(src string, n *node) bool {
	switch n.kind {
	case '"':
		return n.str != ""
	case 'l':
		return src[n.start:n.end] == "true"
	case '0':
		f, _ := strconv.ParseFloat(src[n.start:n.end], 64)
		return f != 0
	}
	return true
}

// jsWriter writes values as JavaScript's JSON.stringify does.
type jsWriter struct{ b strings.Builder }

func (w *jsWriter) obj(keys []string, each func(string)) {
	w.b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			w.b.WriteByte(',')
		}
		w.str(k)
		w.b.WriteByte(':')
		each(k)
	}
	w.b.WriteByte('}')
}

// valueOr writes member key of n, or def when it is missing or falsy.
func (w *jsWriter) valueOr(src string, n *node, key, def string) {
	if it, _ := n.member(key); it != nil && jsTruthy(src, it.val) {
		w.value(src, it.val)
		return
	}
	if def == "" {
		w.b.WriteString("null")
		return
	}
	w.b.WriteString(def)
}

// sorted writes member key of n, an object, with its keys sorted.
func (w *jsWriter) sorted(src string, n *node, key string) {
	it, _ := n.member(key)
	if it == nil || it.val.kind != '{' {
		w.b.WriteString("{}")
		return
	}
	w.object(src, it.val, true)
}

func (w *jsWriter) value(src string, n *node) {
	switch n.kind {
	case '"':
		w.str(n.str)
	case '0':
		f, _ := strconv.ParseFloat(src[n.start:n.end], 64)
		w.b.WriteString(strconv.FormatFloat(f, 'f', -1, 64))
	case 'l':
		w.b.WriteString(src[n.start:n.end])
	case '[':
		w.b.WriteByte('[')
		for i, it := range n.items {
			if i > 0 {
				w.b.WriteByte(',')
			}
			w.value(src, it.val)
		}
		w.b.WriteByte(']')
	case '{':
		w.object(src, n, false)
	}
}

// object writes an object's members once each (the last of duplicate
// keys wins, at the first one's place, as JSON.parse keeps them).
func (w *jsWriter) object(src string, n *node, sortKeys bool) {
	var keys []string
	for _, it := range n.items {
		if m, _ := n.member(it.key); m != nil && !contains(keys, it.key) {
			keys = append(keys, it.key)
		}
	}
	if sortKeys {
		sort.Strings(keys)
	}
	w.obj(keys, func(k string) {
		m, _ := n.member(k)
		w.value(src, m.val)
	})
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// str writes s as JSON.stringify quotes a string.
func (w *jsWriter) str(s string) {
	w.b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			w.b.WriteByte('\\')
			w.b.WriteRune(r)
		case r == '\n':
			w.b.WriteString(`\n`)
		case r == '\r':
			w.b.WriteString(`\r`)
		case r == '\t':
			w.b.WriteString(`\t`)
		case r == '\b':
			w.b.WriteString(`\b`)
		case r == '\f':
			w.b.WriteString(`\f`)
		case r < 0x20:
			fmt.Fprintf(&w.b, `\u%04x`, r)
		default:
			w.b.WriteRune(r)
		}
	}
	w.b.WriteByte('"')
}
