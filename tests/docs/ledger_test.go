package docs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLedger: every long command of docs/long-commands.txt has its line in
// docs/long-ledger.tsv (its last run under make check-docs-long, or "never
// run"), every line names a long command, and every line parses.
func TestLedger(t *testing.T) {
	root := repoRoot(t)
	c := load(t, root)
	smokes, _ := ParseSmoke(c.longText)
	entries, order, problems := ParseLedger(c.ledgerText)
	for _, p := range problems {
		t.Error(p)
	}
	longs := map[string]bool{}
	var missing []string
	for _, s := range smokes {
		longs[s.Long] = true
		if _, ok := entries[s.Long]; !ok {
			missing = append(missing, s.Long+"\tnever run\t-\t-\t-\t-\t-")
		}
	}
	if len(missing) > 0 {
		t.Errorf("docs/long-ledger.tsv has no line for %d long commands; until make check-docs-long runs them, add:\n%s",
			len(missing), strings.Join(missing, "\n"))
	}
	never := 0
	for _, cmd := range order {
		if !longs[cmd] {
			t.Errorf("docs/long-ledger.tsv: %q is no long command of docs/long-commands.txt (stale)", cmd)
		}
		if entries[cmd].Outcome == "never run" {
			never++
		}
	}
	t.Logf("the ledger: %d long commands, %d never run under make check-docs-long", len(order), never)
}

// TestLongPlan: the shards of make check-docs-long SHARD=k/N hold every
// long command once, a with: command beside the one it reads, for every N
// from 1 to 8; the plan for N = 4 is logged (make long-plan prints it).
func TestLongPlan(t *testing.T) {
	root := repoRoot(t)
	c := load(t, root)
	smokes, problems := ParseSmoke(c.longText)
	if len(problems) > 0 {
		t.Skip("docs/long-commands.txt has format problems: TestSmokeFormat names them")
	}
	ledger, _, _ := ParseLedger(c.ledgerText)
	for n := 1; n <= 8; n++ {
		p := Plan(smokes, ledger, n)
		count := 0
		for k := range p.Members {
			count += len(p.Members[k])
		}
		if count != len(smokes) || len(p.Of) != len(smokes) {
			t.Errorf("N = %d: %d placed of %d long commands", n, count, len(smokes))
		}
		for _, s := range smokes {
			if s.With != "" && p.Of[s.Long] != p.Of[s.With] {
				t.Errorf("N = %d: %q is in shard %d, %q (which it reads) in %d", n, s.Long, p.Of[s.Long], s.With, p.Of[s.With])
			}
		}
	}
	n := 4
	if v := os.Getenv("CGOCOST_LONG_SHARDS"); v != "" {
		if _, m, err := ParseShard("1/" + v); err == nil {
			n = m
		}
	}
	t.Logf("\n%s", Plan(smokes, ledger, n))
}

// Plan's rule on a small list: largest group first on the lightest shard;
// a ledger's passing run replaces the estimate, a failed one does not.
func TestPlanRule(t *testing.T) {
	s := []Smoke{
		{Long: "a", Estimate: 10 * time.Minute},
		{Long: "b", Estimate: 30 * time.Minute},
		{Long: "c", Estimate: 20 * time.Minute},
		{Long: "d", Estimate: time.Minute, With: "a"},
	}
	p := Plan(s, nil, 2)
	// b alone (30); c then a+d (20 + 11) on the other
	if p.Of["b"] != 1 || p.Of["c"] != 2 || p.Of["a"] != 2 || p.Of["d"] != 2 ||
		p.Weight[0] != 30*time.Minute || p.Weight[1] != 31*time.Minute {
		t.Errorf("plan %v %v", p.Of, p.Weight)
	}
	ledger := map[string]LedgerEntry{
		"b": {Command: "b", Outcome: "pass", Seconds: 60},
		"c": {Command: "c", Outcome: "fail (exit 3)", Seconds: 5},
	}
	p = Plan(s, ledger, 2)
	// c 20, a+d 11, b 1: c alone, then a+d and b together
	if p.Of["c"] != 1 || p.Of["a"] != 2 || p.Of["b"] != 2 || p.Weight[1] != 12*time.Minute {
		t.Errorf("with the ledger: plan %v %v", p.Of, p.Weight)
	}
	for _, bad := range []string{"0/2", "3/2", "2", "a/b", "1/0"} {
		if _, _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) took it", bad)
		}
	}
}

// The ledger's lines round-trip through FormatLedger and ParseLedger, a
// bad line is named, and RecordLedger replaces one command's line only.
func TestLedgerFormat(t *testing.T) {
	longs := []string{"make a", "make b"}
	e := LedgerEntry{Command: "make a", Outcome: "pass", Commit: "0123456789ab", Date: "2026-12-05T08:00:00Z",
		Machine: "AMD EPYC, 2 CPUs", Seconds: 61, Shard: "1/4"}
	text := FormatLedger(map[string]LedgerEntry{"make a": e}, longs)
	got, order, problems := ParseLedger(text)
	if len(problems) > 0 || len(order) != 2 || got["make a"] != e || got["make b"].Outcome != "never run" {
		t.Errorf("round trip: %v %v %v\n%s", got, order, problems, text)
	}
	for _, bad := range []string{"make a\tpassed\tx\t2026-12-05T08:00:00Z\tm\t1\t-", "make a\tpass\tx\tyesterday\tm\t1\t-",
		"make a\tnever run\tx\t-\t-\t-\t-", "make a\tpass"} {
		if _, _, p := ParseLedger(bad); len(p) == 0 {
			t.Errorf("%q parsed without a problem", bad)
		}
	}
	path := filepath.Join(t.TempDir(), "ledger.tsv")
	if err := RecordLedger(path, e, longs); err != nil {
		t.Fatal(err)
	}
	f := e
	f.Command, f.Outcome = "make b", "fail (exit 3)"
	if err := RecordLedger(path, f, longs); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	got, _, problems = ParseLedger(string(b))
	if len(problems) > 0 || got["make a"] != e || got["make b"] != f {
		t.Errorf("after two records: %v %v\n%s", got, problems, b)
	}
}
