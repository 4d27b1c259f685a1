package integration

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// Where a run comes from (the document's source section): a commit that
// is not hex, a time that does not parse, a label that is not printable,
// given or from the CI's variables, is exit 2 with one line naming the
// option or the variable, before anything runs; good values, given or
// from the variables (an option winning over them), are recorded.
func TestSourceSection(t *testing.T) {
	bench := filepath.Join(buildDir(t), "bench")
	bad := []struct {
		env  []string
		args []string
		want string
	}{
		{nil, []string{"--commit", "78eae7g"}, "--commit: '78eae7g' is not a commit"},
		{nil, []string{"--commit", "abc"}, "4 to 64 hex digits"},
		{nil, []string{"--commit-time", "2026-12-05"}, "--commit-time: '2026-12-05' is not an RFC 3339 time"},
		{nil, []string{"--commit-time", "2026-02-30T00:00:00Z"}, "is not an RFC 3339 time"},
		{nil, []string{"--label", "main\tx"}, "--label: "},
		{[]string{"GITHUB_SHA=refs/heads/main"}, nil, "GITHUB_SHA: 'refs/heads/main' is not a commit"},
		{[]string{"CI_COMMIT_TIMESTAMP=yesterday"}, nil, "CI_COMMIT_TIMESTAMP: 'yesterday' is not an RFC 3339 time"},
	}
	for _, c := range bad {
		args := append([]string{"-n", "1000"}, c.args...)
		r := run(t, bench, c.env, args...)
		msg := strings.TrimRight(r.stderr, "\n")
		if r.code != 2 || r.stdout != "" || strings.Count(msg, "\n") != 0 || !strings.Contains(msg, c.want) {
			t.Errorf("%v %v: exit %d, stdout %q, stderr %q; want 2, nothing, one line with %q", c.env, c.args, r.code, r.stdout, r.stderr, c.want)
		}
	}
	type source struct {
		Commit     *string `json:"commit"`
		CommitTime *string `json:"commit_time"`
		Label      *string `json:"label"`
	}
	good := []struct {
		env                 []string
		args                []string
		commit, time, label string
		none                bool
	}{
		{nil, nil, "", "", "", true},
		{nil, []string{"--commit", "78eae77", "--commit-time", "2026-12-03T10:05:34+00:00", "--label", "main"}, "78eae77", "2026-12-03T10:05:34+00:00", "main", false},
		{[]string{"GITHUB_SHA=59d9aaa559568d812e44bb81d4e8c5e2cb58726f", "GITHUB_REF_NAME=main", "CGOCOST_COMMIT_TIME=2026-12-02T00:43:32Z"}, nil,
			"59d9aaa559568d812e44bb81d4e8c5e2cb58726f", "2026-12-02T00:43:32Z", "main", false},
		{[]string{"CI_COMMIT_SHA=ffff0000", "CGOCOST_LABEL=nightly"}, []string{"--commit", "1fcf8ac"}, "1fcf8ac", "", "nightly", false},
	}
	for _, c := range good {
		args := append([]string{"-n", "1000", "--format", "json"}, c.args...)
		r := run(t, bench, append([]string{"GITHUB_SHA=", "GITHUB_REF_NAME=", "CI_COMMIT_SHA=", "CI_COMMIT_TIMESTAMP=", "CI_COMMIT_REF_NAME=", "CGOCOST_COMMIT=", "CGOCOST_COMMIT_TIME=", "CGOCOST_LABEL="}, c.env...), args...)
		if r.code != 0 {
			t.Fatalf("%v %v: exit %d: %s", c.env, c.args, r.code, r.stderr)
		}
		var d struct {
			Source *source `json:"source"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
			t.Fatal(err)
		}
		if c.none {
			if d.Source != nil {
				t.Errorf("told nothing: a source section %+v", *d.Source)
			}
			continue
		}
		s := d.Source
		str := func(p *string) string {
			if p == nil {
				return ""
			}
			return *p
		}
		if s == nil || str(s.Commit) != c.commit || str(s.CommitTime) != c.time || str(s.Label) != c.label || (c.time == "") != (s.CommitTime == nil) {
			t.Errorf("%v %v: source %+v, want %s %s %s", c.env, c.args, s, c.commit, c.time, c.label)
		}
	}
}
