package agentsetup

import (
	"fmt"
	"strings"
)

// A managed block is a run of whole lines that setup owns, fenced by a
// begin line and an end line, appended at the end of a file (TOML, where a
// new table must follow the root keys anyway, and markdown). Whatever lies
// outside the fence is never touched.
type fence struct {
	begin, end string // line prefixes
}

// find returns the byte range of the block's lines, or ok false. A begin
// line without an end line is an error: setup will not guess where its
// block stops.
func (f fence) find(path, src string) (start, end int, ok bool, err error) {
	start = lineWith(src, f.begin, 0)
	if start < 0 {
		if lineWith(src, f.end, 0) >= 0 {
			return 0, 0, false, fmt.Errorf("%s: a %q line without the %q line before it; remove it by hand (memdir changed nothing)", path, f.end, f.begin)
		}
		return 0, 0, false, nil
	}
	e := lineWith(src, f.end, start)
	if e < 0 {
		return 0, 0, false, fmt.Errorf("%s: memdir's block starts with %q but its %q line is gone; fix it by hand (memdir changed nothing)", path, f.begin, f.end)
	}
	end = e + strings.IndexByte(src[e:]+"\n", '\n') + 1
	return start, min(end, len(src)), true, nil
}

// lineWith finds the first line at or after from that starts with prefix.
func lineWith(src, prefix string, from int) int {
	for i := from; i < len(src); {
		if strings.HasPrefix(src[i:], prefix) {
			return i
		}
		j := strings.IndexByte(src[i:], '\n')
		if j < 0 {
			return -1
		}
		i += j + 1
	}
	return -1
}

// put writes block (whole lines, each ending in nl) into src: over the
// old block when there is one, else at the end after a blank line.
func (f fence) put(path, src, block string) (string, error) {
	start, end, ok, err := f.find(path, src)
	if err != nil {
		return "", err
	}
	if ok {
		if strings.Contains(firstLine(src[start:end]), noFinalNewline) {
			block = markNoFinalNewline(block)
		}
		return src[:start] + block + src[end:], nil
	}
	nl := lineEnding(src)
	switch {
	case src == "":
		return block, nil
	case strings.HasSuffix(src, "\r"):
		src += "\n" // completes a CRLF line ending, as lineEnding assumed
	case !strings.HasSuffix(src, "\n"):
		// The file's last line had no line break: setup adds one, and says
		// so in its begin line, so that undo takes it out again.
		src += nl
		block = markNoFinalNewline(block)
	}
	return src + nl + block, nil
}

// noFinalNewline marks a block put after a last line that had no line
// break.
const noFinalNewline = " (the line before had no final newline)"

// markNoFinalNewline adds the mark to the block's begin line: before the
// closing "-->" of a markdown comment, else at its end.
func markNoFinalNewline(block string) string {
	first := firstLine(block)
	line := strings.TrimRight(first, "\r")
	if rest, ok := strings.CutSuffix(line, " -->"); ok {
		line = rest + noFinalNewline + " -->"
	} else {
		line += noFinalNewline
	}
	return line + first[len(strings.TrimRight(first, "\r")):] + block[len(first):]
}

// firstLine is s up to its first "\n" (without it).
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// remove takes the block out again, with the blank line put added before
// it.
func (f fence) remove(path, src string) (string, bool, error) {
	start, end, ok, err := f.find(path, src)
	if err != nil || !ok {
		return src, false, err
	}
	before := src[:start]
	nl := lineEnding(src)
	if rest, ok := strings.CutSuffix(before, nl); ok && strings.HasSuffix(rest, "\n") {
		before = rest
	}
	if strings.Contains(firstLine(src[start:end]), noFinalNewline) && end == len(src) {
		before = strings.TrimSuffix(before, nl)
	}
	return before + src[end:], true, nil
}
