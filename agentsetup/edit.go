package agentsetup

import (
	"fmt"
	"slices"
	"strings"

	"github.com/memdir/memdir/untrusted"
)

// edit applies t (or, with undo, takes it out) to a file's text. It
// returns the new text, notes for the person and whether the file should
// go (an undo left an empty object in a JSON file).
func (t target) edit(src string, o Options) (string, []string, bool, error) {
	switch t.format {
	case "json":
		return t.editJSON(src, o)
	case "toml":
		out, notes, err := t.editTOML(src, o)
		return out, notes, o.Undo && strings.TrimSpace(out) == "" && src != out, err
	case "file":
		return t.editFile(src, o)
	default:
		undo := o.Undo || t.remove
		out, _, err := t.editBlock(src, undo)
		return out, nil, undo && strings.TrimSpace(out) == "" && src != out, err
	}
}

func (t target) editJSON(src string, o Options) (string, []string, bool, error) {
	d, err := newJSONDoc(t.path, src)
	if err != nil {
		return "", nil, false, err
	}
	initial := d.src
	var notes []string
	if t.serverPath != nil {
		note, err := d.server(t, o)
		if err != nil {
			return "", nil, false, err
		}
		notes = appendNote(notes, note)
	}
	for _, h := range t.hooks {
		var note string
		if own := peerHook(t.peer, h); own != "" && !o.Undo {
			notes = appendNote(notes, fmt.Sprintf("%s: %s already runs `%s` (your own variant); left as it is", t.peer, h.event, own))
			continue
		}
		if o.Undo {
			err = d.unhook(h)
		} else {
			note, err = d.hook(h, o.Program)
		}
		if err != nil {
			return "", nil, false, err
		}
		notes = appendNote(notes, note)
	}
	for _, h := range t.unhooks {
		if err := d.unhook(h); err != nil {
			return "", nil, false, err
		}
	}
	for _, st := range t.settings {
		note, err := d.setting(st, o.Undo)
		if err != nil {
			return "", nil, false, err
		}
		notes = appendNote(notes, note)
	}
	for _, l := range t.lists {
		if err := d.list(l, o.Undo); err != nil {
			return "", nil, false, err
		}
	}
	if d.src == initial {
		return src, notes, false, nil
	}
	gone := o.Undo && len(d.root.items) == 0 && strings.TrimSpace(d.src[d.root.start+1:d.root.end-1]) == ""
	return d.src, notes, gone, nil
}

func appendNote(notes []string, note string) []string {
	if note == "" {
		return notes
	}
	return append(notes, note)
}

// server puts the MCP entry in, or takes it out. An entry by that name
// that does not run `memdir mcp` belongs to the person and stays.
func (d *jsonDoc) server(t target, o Options) (string, error) {
	name := strings.Join(t.serverPath, ".")
	cur := d.lookup(t.serverPath...)
	ours := cur != nil && isMemdirServer(cur)
	if o.Undo {
		if !ours {
			return "", nil
		}
		return "", d.removePath(t.serverPath)
	}
	switch {
	case cur == nil:
		return "", d.set(t.server, t.serverPath...)
	case !ours:
		return fmt.Sprintf("%s: %s is already set and does not run `memdir mcp`; left as it is", d.path, name), nil
	}
	// Ours: point it at this memdir, and add the keys an earlier setup did
	// not write (Gemini's trust).
	for _, kv := range t.server {
		if kv.k == "args" || kv.k == "type" {
			continue
		}
		it, _ := d.lookup(t.serverPath...).member(kv.k)
		switch {
		case it == nil:
			if err := d.set(kv.v, append(slices.Clone(t.serverPath), kv.k)...); err != nil {
				return "", err
			}
		case render(kv.v, "", "") != d.src[it.val.start:it.val.end]:
			if err := d.splice(it.val.start, it.val.end, render(kv.v, "", "")); err != nil {
				return "", err
			}
		}
	}
	return "", nil
}

// setting writes st when the key is missing, or takes it out on undo when
// it still holds setup's value. A different value is the person's: it
// stays, with a note.
func (d *jsonDoc) setting(st setting, undo bool) (string, error) {
	name := strings.Join(st.path, ".")
	cur := d.lookup(st.path...)
	want := render(st.value, "", "")
	same := cur != nil && d.src[cur.start:cur.end] == want
	// A value setup wrote before for another memdir directory (memdir's
	// home moved, say) is still setup's: it is updated, and undone.
	earlier := cur != nil && !same && cur.kind == '"' && st.owned != nil && st.owned(cur.str)
	switch {
	case undo && (same || earlier):
		if old, ok := restoreValue(st, d.path); ok {
			return fmt.Sprintf("%s: %s is %s again, as before setup", d.path, name, old), d.splice(cur.start, cur.end, old)
		}
		return "", d.removePath(st.path)
	case undo, same:
		return "", nil
	case earlier:
		return "", d.splice(cur.start, cur.end, want)
	case cur != nil && st.takeOver:
		note := fmt.Sprintf("%s: %s was %s, which stood in the way of one memory; now %s (--undo puts it back)", d.path, name, d.src[cur.start:cur.end], want)
		return note, d.splice(cur.start, cur.end, want)
	case cur != nil:
		return fmt.Sprintf("%s: %s is already set to %s; left as it is", d.path, name, d.src[cur.start:cur.end]), nil
	}
	return "", d.set(st.value, st.path...)
}

// list adds l's strings to the list at l.path (those missing), or takes
// them out on undo, with the containers left empty.
func (d *jsonDoc) list(l listSetting, undo bool) error {
	path := l.path
	for _, r := range l.values {
		list := d.lookup(path...)
		if list != nil && list.kind != '[' {
			return fmt.Errorf("%s: %s is not a list; fix it by hand (memdir changed nothing)", d.path, strings.Join(path, "."))
		}
		i := -1
		if list != nil {
			i = slices.IndexFunc(list.items, func(it item) bool { return it.val.kind == '"' && it.val.str == r })
		}
		switch {
		case undo && i >= 0:
			if err := d.removeItem(list, i); err != nil {
				return err
			}
			if err := d.pruneEmpty(path); err != nil {
				return err
			}
		case !undo && i < 0:
			if p := d.lookup(path[:len(path)-1]...); len(path) > 1 && p != nil && p.kind != '{' {
				return d.notObject(path[:len(path)-1])
			}
			if err := d.appendTo(r, path...); err != nil {
				return err
			}
		}
	}
	return nil
}

// isMemdirServer reports whether an MCP entry runs `memdir mcp`.
func isMemdirServer(n *node) bool {
	if _, _, ok := runsMemdir(strValue(n, "command")); !ok {
		return false
	}
	it, _ := n.member("args")
	return it != nil && it.val.kind == '[' && len(it.val.items) == 1 && it.val.items[0].val.str == "mcp"
}

// strValue is the string value of member key of object n, or "".
func strValue(n *node, key string) string {
	it, _ := n.member(key)
	if it == nil || it.val.kind != '"' {
		return ""
	}
	return it.val.str
}

// hookGroup is the matcher group setup writes for h.
func hookGroup(h hookSpec, program string) jobj {
	hook := jobj{{"type", "command"}, {"command", hookCommand(program, h.sub)}, {"timeout", h.timeout}}
	g := jobj{{"hooks", []any{hook}}}
	if h.matcher != "" {
		g = append(jobj{{"matcher", h.matcher}}, g...)
	}
	return g
}

// found is a hook command inside hooks.<event>: the group's index and the
// hook's index inside the group.
type found struct {
	group, hook int
	node        *node // the hook object
	exact       bool  // setup's own form (any memdir path)
}

// findHooks lists the hooks of event that run the memdir subcommand of h.
func (d *jsonDoc) findHooks(h hookSpec) []found {
	list := d.lookup("hooks", h.event)
	if list == nil || list.kind != '[' {
		return nil
	}
	verb, _, _ := strings.Cut(h.sub, " ")
	var out []found
	for gi, g := range list.items {
		hooks, _ := g.val.member("hooks")
		if hooks == nil || hooks.val.kind != '[' {
			continue
		}
		for hi, hk := range hooks.val.items {
			_, rest, ok := runsMemdir(strValue(hk.val, "command"))
			if !ok || rest != verb && !strings.HasPrefix(rest, verb+" ") {
				continue
			}
			out = append(out, found{group: gi, hook: hi, node: hk.val, exact: rest == h.sub || slices.Contains(h.legacy, rest)})
		}
	}
	return out
}

// hook wires h unless the event already runs that memdir subcommand.
func (d *jsonDoc) hook(h hookSpec, program string) (string, error) {
	if hooks := d.lookup("hooks"); hooks != nil && hooks.kind != '{' {
		return "", d.notObject([]string{"hooks"})
	}
	fs := d.findHooks(h)
	if len(fs) == 0 {
		return "", d.appendTo(hookGroup(h, program), "hooks", h.event)
	}
	f := fs[0]
	if !f.exact {
		return fmt.Sprintf("%s: %s already runs `%s` (%s); left as it is", d.path, h.event, strValue(f.node, "command"), "your own variant"), nil
	}
	want := hookCommand(program, h.sub)
	group := d.lookup("hooks", h.event).items[f.group].val
	timeout, _ := f.node.member("timeout")
	if strValue(f.node, "command") == want && strValue(group, "matcher") == h.matcher &&
		timeout != nil && d.src[timeout.val.start:timeout.val.end] == fmt.Sprint(h.timeout) {
		return "", nil
	}
	hooks, _ := group.member("hooks")
	if len(hooks.val.items) == 1 && len(group.items) <= 2 {
		return "", d.splice(group.start, group.end, render(hookGroup(h, program), lineIndent(d.src, group.start), d.unitFor(group.start)))
	}
	if timeout != nil {
		if err := d.splice(timeout.val.start, timeout.val.end, fmt.Sprint(h.timeout)); err != nil {
			return "", err
		}
	}
	it, _ := d.findHooks(h)[0].node.member("command")
	return "", d.splice(it.val.start, it.val.end, quote(want))
}

// unhook takes out the hooks setup wired for h, and what it created to
// hold them once that is empty.
func (d *jsonDoc) unhook(h hookSpec) error {
	for {
		var f *found
		for _, x := range d.findHooks(h) {
			if x.exact {
				f = &x
				break
			}
		}
		if f == nil {
			return nil
		}
		list := d.lookup("hooks", h.event)
		group := list.items[f.group].val
		hooks, _ := group.member("hooks")
		var err error
		if len(hooks.val.items) == 1 && onlyKeys(group, "matcher", "hooks") {
			err = d.removeItem(list, f.group)
		} else {
			err = d.removeItem(hooks.val, f.hook)
		}
		if err != nil {
			return err
		}
		if err := d.pruneEmpty([]string{"hooks", h.event}); err != nil {
			return err
		}
	}
}

func onlyKeys(n *node, keys ...string) bool {
	for _, it := range n.items {
		if !slices.Contains(keys, it.key) {
			return false
		}
	}
	return true
}

// removePath deletes the member at path, then its parents that are left
// empty.
func (d *jsonDoc) removePath(path []string) error {
	parent := d.lookup(path[:len(path)-1]...)
	_, i := parent.member(path[len(path)-1])
	if err := d.removeItem(parent, i); err != nil {
		return err
	}
	return d.pruneEmpty(path[:len(path)-1])
}

// pruneEmpty removes the members along path, deepest first, that hold an
// empty object or list.
func (d *jsonDoc) pruneEmpty(path []string) error {
	for n := len(path); n > 0; n-- {
		v := d.lookup(path[:n]...)
		if v == nil || (v.kind != '{' && v.kind != '[') || len(v.items) > 0 || hasComment(d.src[v.start+1:v.end-1]) {
			return nil
		}
		parent := d.lookup(path[:n-1]...)
		_, i := parent.member(path[n-1])
		if err := d.removeItem(parent, i); err != nil {
			return err
		}
	}
	return nil
}

// peerHook is the command of the person's own variant of h in the file at
// path (not setup's form), or "".
func peerHook(path string, h hookSpec) string {
	if path == "" {
		return ""
	}
	data, err := untrusted.ReadFile(path, "", untrusted.MaxSettings)
	if err != nil {
		return ""
	}
	d, err := newJSONDoc(path, string(data))
	if err != nil {
		return ""
	}
	for _, f := range d.findHooks(h) {
		if !f.exact {
			return strValue(f.node, "command")
		}
	}
	return ""
}
