// Package docs checks the commands shown in README.md and docs/*.md.
//
// The convention (docs/methodology.md, "Commands in the docs"):
//
//   - A command is a line of a fenced code block tagged sh. A leading "$ " is
//     optional; a line ending in a backslash continues on the next line;
//     blank lines and lines that are only a comment are not commands.
//   - A trailing comment "# exit N" (text may follow: "# exit 1: caught")
//     states the exit status the command must end with; without one it is 0.
//   - Output examples go in untagged or text blocks and are not commands; a
//     "$ " prompt in such a block is an error, and so is a block tagged bash,
//     shell, console or zsh (tag it sh).
//   - An inline code span that starts with "./build/" or "make " must be a
//     command of some sh block, so that prose cannot name an unchecked one.
//   - docs/long-commands.txt lists, one a line and exactly as written (without
//     the "$ " and the trailing comment), the commands too long for make test.
//     Lines starting with # are comments.
//
// This file holds the extractor; docs_test.go runs the commands.
package docs

import (
	"bufio"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Command is one command of an sh block.
type Command struct {
	File string // the document, relative to the repository root
	Line int    // 1-based line of the command's first line
	Text string // the command as written: no "$ ", no trailing comment, continuations joined
	Exit int    // the documented exit status
}

// Span is an inline code span of the prose, outside any fenced block.
type Span struct {
	File string
	Line int
	Text string
}

// Doc is what one markdown document shows.
type Doc struct {
	Commands []Command
	Spans    []Span
	Links    []Span          // relative link targets of the prose: path, path#anchor or #anchor
	Anchors  map[string]bool // the anchors of its headings, as GitHub makes them
	Problems []string        // violations of the convention, each naming file:line
}

var (
	exitComment = regexp.MustCompile(`^exit (\d+)\b`)
	shellTags   = map[string]bool{"bash": true, "shell": true, "console": true, "zsh": true, "shell-session": true}
	inlineCode  = regexp.MustCompile("`([^`]+)`")
	link        = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading     = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*$`)
)

// Parse extracts the commands, the inline code spans and the problems of one
// markdown document named file.
func Parse(file, text string) Doc {
	d := Doc{Anchors: map[string]bool{}}
	problem := func(line int, format string, args ...any) {
		d.Problems = append(d.Problems, fmt.Sprintf("%s:%d: %s", file, line, fmt.Sprintf(format, args...)))
	}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var (
		inFence  bool
		fence    string // the opening run of backticks
		tag      string
		pending  strings.Builder // a command continued with a backslash
		pendLine int
		lineNo   int
	)
	flush := func() {
		if pendLine == 0 {
			return
		}
		cmd, exit, err := splitComment(pending.String())
		if err != nil {
			problem(pendLine, "%v", err)
		} else if cmd != "" {
			d.Commands = append(d.Commands, Command{File: file, Line: pendLine, Text: cmd, Exit: exit})
		}
		pending.Reset()
		pendLine = 0
	}
	for sc.Scan() {
		lineNo++
		raw := sc.Text()
		trimmed := strings.TrimSpace(raw)
		if !inFence {
			if strings.HasPrefix(trimmed, "```") {
				inFence = true
				fence = trimmed[:len(trimmed)-len(strings.TrimLeft(trimmed, "`"))]
				info := strings.Fields(strings.TrimPrefix(trimmed, fence))
				tag = ""
				if len(info) > 0 {
					tag = strings.ToLower(info[0])
				}
				if shellTags[tag] {
					problem(lineNo, "a %s block: tag commands sh", tag)
				}
				continue
			}
			for _, m := range inlineCode.FindAllStringSubmatch(raw, -1) {
				d.Spans = append(d.Spans, Span{File: file, Line: lineNo, Text: strings.TrimSpace(m[1])})
			}
			for _, m := range link.FindAllStringSubmatch(inlineCode.ReplaceAllString(raw, ""), -1) {
				if !strings.Contains(m[1], "://") && !strings.HasPrefix(m[1], "mailto:") {
					d.Links = append(d.Links, Span{File: file, Line: lineNo, Text: m[1]})
				}
			}
			if m := heading.FindStringSubmatch(raw); m != nil {
				d.Anchors[Anchor(m[1])] = true
			}
			continue
		}
		if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, "`") == "" {
			if pendLine != 0 {
				problem(pendLine, "a command ends in a backslash at the end of its block")
				pending.Reset()
				pendLine = 0
			}
			inFence = false
			continue
		}
		if tag != "sh" {
			if strings.HasPrefix(trimmed, "$ ") {
				problem(lineNo, "a $ prompt in a %q block: commands go in sh blocks", tag)
			}
			continue
		}
		if pendLine == 0 {
			trimmed = strings.TrimPrefix(trimmed, "$ ")
			if trimmed == "" || strings.HasPrefix(trimmed, "#") {
				continue
			}
			pendLine = lineNo
		} else {
			pending.WriteByte(' ')
		}
		if strings.HasSuffix(trimmed, "\\") {
			pending.WriteString(strings.TrimSpace(strings.TrimSuffix(trimmed, "\\")))
			continue
		}
		pending.WriteString(trimmed)
		flush()
	}
	if inFence {
		problem(lineNo, "a fenced block is not closed")
	}
	return d
}

// splitComment splits a command line into the command and the exit status
// of its trailing "# exit N" comment (0 without one). A # starts a comment
// where bash would: at the start of a word, outside quotes.
func splitComment(line string) (string, int, error) {
	var quote rune
	prevSpace := true
	escaped := false
	for i, r := range line {
		switch {
		case escaped:
			escaped = false
		case r == '\\' && quote != '\'':
			escaped = true
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && prevSpace:
			cmd := strings.TrimSpace(line[:i])
			comment := strings.TrimSpace(line[i+1:])
			if m := exitComment.FindStringSubmatch(comment); m != nil {
				n, err := strconv.Atoi(m[1])
				if err != nil || n > 255 {
					return "", 0, fmt.Errorf("exit status %q out of range", m[1])
				}
				return cmd, n, nil
			}
			return cmd, 0, nil
		}
		prevSpace = r == ' ' || r == '\t'
	}
	if quote != 0 {
		return "", 0, fmt.Errorf("unclosed %c quote in %q", quote, line)
	}
	return strings.TrimSpace(line), 0, nil
}

// ParseLong reads docs/long-commands.txt: one command a line, blank lines
// and # comments skipped. It returns each command with its line number.
func ParseLong(text string) map[string]int {
	long := map[string]int{}
	for i, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if _, dup := long[l]; !dup {
			long[l] = i + 1
		}
	}
	return long
}

// CommandSpan reports whether an inline code span names a command, which
// then must be one of the sh blocks' commands.
func CommandSpan(s string) bool {
	return (strings.HasPrefix(s, "./build/") && len(s) > len("./build/")) || strings.HasPrefix(s, "make ")
}

// Anchor is the fragment GitHub gives a heading: lower case, punctuation
// other than - and _ dropped, spaces made hyphens.
func Anchor(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
