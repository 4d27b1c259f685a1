// Package docs checks the commands shown in README.md and docs/*.md.
//
// The convention (docs/methodology.md, "Commands in the docs"):
//
//   - A command is a line of a fenced code block tagged sh. A leading "$ " is
//     optional; a line ending in a backslash continues on the next line;
//     blank lines and lines that are only a comment are not commands.
//   - A trailing comment "# exit N" (text may follow: "# exit 1: caught")
//     states the exit status the command must end with; without one it is 0.
//     "# exit N or M" allows either: a verdict on a build against itself
//     is honestly one or the other, as the noise decides.
//   - Output examples go in untagged or text blocks and are not commands; a
//     "$ " prompt in such a block is an error, and so is a block tagged bash,
//     shell, console or zsh (tag it sh).
//   - An inline code span that starts with "./build/" or "make " must be a
//     command of some sh block, so that prose cannot name an unchecked one.
//   - docs/long-commands.txt lists, one a line and exactly as written (without
//     the "$ " and the trailing comment), the commands too long for make test.
//     Lines starting with # are comments; the indented lines under a command
//     are its smoke form, which make test runs instead (smoke.go).
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
	Or   []int  // other allowed ones ("# exit N or M"); none without
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
	exitComment = regexp.MustCompile(`^exit (\d+)(?: or (\d+))?\b`)
	shellTags   = map[string]bool{"bash": true, "shell": true, "console": true, "zsh": true, "shell-session": true}
	inlineCode  = regexp.MustCompile("`([^`]+)`")
	link        = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading     = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*$`)
)

// Parse extracts the commands, the inline code spans and the problems of one
// markdown document named file.
func Parse(file, text string) Doc {
	p := parser{file: file, d: Doc{Anchors: map[string]bool{}}}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		p.lineNo++
		raw := sc.Text()
		trimmed := strings.TrimSpace(raw)
		switch {
		case !p.inFence && strings.HasPrefix(trimmed, "```"):
			p.open(trimmed)
		case !p.inFence:
			p.prose(raw)
		case strings.HasPrefix(trimmed, p.fence) && strings.Trim(trimmed, "`") == "":
			p.close()
		default:
			p.blockLine(trimmed)
		}
	}
	if p.inFence {
		p.problem(p.lineNo, "a fenced block is not closed")
	}
	return p.d
}

// parser is the state of Parse between lines.
type parser struct {
	file     string
	d        Doc
	inFence  bool
	fence    string // the opening run of backticks
	tag      string
	pending  strings.Builder // a command continued with a backslash
	pendLine int
	lineNo   int
}

func (p *parser) problem(line int, format string, args ...any) {
	p.d.Problems = append(p.d.Problems, fmt.Sprintf("%s:%d: %s", p.file, line, fmt.Sprintf(format, args...)))
}

// open starts a fenced block: its backtick run and its tag.
func (p *parser) open(trimmed string) {
	p.inFence = true
	p.fence = trimmed[:len(trimmed)-len(strings.TrimLeft(trimmed, "`"))]
	info := strings.Fields(strings.TrimPrefix(trimmed, p.fence))
	p.tag = ""
	if len(info) > 0 {
		p.tag = strings.ToLower(info[0])
	}
	if shellTags[p.tag] {
		p.problem(p.lineNo, "a %s block: tag commands sh", p.tag)
	}
}

// prose collects a line's code spans, relative links and heading anchor.
func (p *parser) prose(raw string) {
	for _, m := range inlineCode.FindAllStringSubmatch(raw, -1) {
		p.d.Spans = append(p.d.Spans, Span{File: p.file, Line: p.lineNo, Text: strings.TrimSpace(m[1])})
	}
	for _, m := range link.FindAllStringSubmatch(inlineCode.ReplaceAllString(raw, ""), -1) {
		if !strings.Contains(m[1], "://") && !strings.HasPrefix(m[1], "mailto:") {
			p.d.Links = append(p.d.Links, Span{File: p.file, Line: p.lineNo, Text: m[1]})
		}
	}
	if m := heading.FindStringSubmatch(raw); m != nil {
		p.d.Anchors[Anchor(m[1])] = true
	}
}

// close ends a fenced block; a command left continued is a problem.
func (p *parser) close() {
	if p.pendLine != 0 {
		p.problem(p.pendLine, "a command ends in a backslash at the end of its block")
		p.pending.Reset()
		p.pendLine = 0
	}
	p.inFence = false
}

// blockLine takes one line inside a fenced block: a command (or a part of
// one) in an sh block; in any other block, a $ prompt is a problem.
func (p *parser) blockLine(trimmed string) {
	if p.tag != "sh" {
		if strings.HasPrefix(trimmed, "$ ") {
			p.problem(p.lineNo, "a $ prompt in a %q block: commands go in sh blocks", p.tag)
		}
		return
	}
	if p.pendLine == 0 {
		trimmed = strings.TrimPrefix(trimmed, "$ ")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			return
		}
		p.pendLine = p.lineNo
	} else {
		p.pending.WriteByte(' ')
	}
	if strings.HasSuffix(trimmed, "\\") {
		p.pending.WriteString(strings.TrimSpace(strings.TrimSuffix(trimmed, "\\")))
		return
	}
	p.pending.WriteString(trimmed)
	p.flush()
}

// flush ends the pending command.
func (p *parser) flush() {
	cmd, exit, or, err := splitComment(p.pending.String())
	if err != nil {
		p.problem(p.pendLine, "%v", err)
	} else if cmd != "" {
		c := Command{File: p.file, Line: p.pendLine, Text: cmd, Exit: exit}
		if or >= 0 {
			c.Or = []int{or}
		}
		p.d.Commands = append(p.d.Commands, c)
	}
	p.pending.Reset()
	p.pendLine = 0
}

// splitComment splits a command line into the command and the exit status
// of its trailing "# exit N" comment (0 without one), with the other one of
// "# exit N or M" (-1 without). A # starts a comment where bash would: at
// the start of a word, outside quotes.
func splitComment(line string) (string, int, int, error) {
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
					return "", 0, -1, fmt.Errorf("exit status %q out of range", m[1])
				}
				or := -1
				if m[2] != "" {
					if or, err = strconv.Atoi(m[2]); err != nil || or > 255 || or == n {
						return "", 0, -1, fmt.Errorf("exit status %q: not another status in range", m[2])
					}
				}
				return cmd, n, or, nil
			}
			return cmd, 0, -1, nil
		}
		prevSpace = r == ' ' || r == '\t'
	}
	if quote != 0 {
		return "", 0, -1, fmt.Errorf("unclosed %c quote in %q", quote, line)
	}
	return strings.TrimSpace(line), 0, -1, nil
}

// ParseLong reads docs/long-commands.txt: one command a line, blank lines,
// # comments and the indented lines of the smoke forms (ParseSmoke) skipped. It returns each command with its line number.
func ParseLong(text string) map[string]int {
	long := map[string]int{}
	for i, raw := range strings.Split(text, "\n") {
		l := strings.TrimSpace(raw)
		if l == "" || strings.HasPrefix(l, "#") || attribute(raw) { // an indented line: a smoke form's (smoke.go)
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
