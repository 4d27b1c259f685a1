package docs

// The ledger of the long commands (docs/long-ledger.tsv): for every long
// command of docs/long-commands.txt, its last run under make
// check-docs-long: the outcome, the commit, the date, the machine, how
// long it took and in which shard. make check-docs-long writes it as each
// long form ends; TestLedger fails when a long command has no line (a
// command never run says so: "never run"), when a line names no long
// command, or when a line does not parse.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// LedgerEntry is one long command's last run.
type LedgerEntry struct {
	Command string
	Outcome string // pass, fail (exit N), or never run
	Commit  string // the short hash, -dirty when the tree had changes
	Date    string // RFC 3339, UTC
	Machine string // CPU model and online CPUs
	Seconds float64
	Shard   string // k/N, or - for a run without shards
}

const ledgerHeader = `# docs/long-ledger.tsv: the last run of every long command of
# docs/long-commands.txt under make check-docs-long (written by tests/docs as
# each long form ends; "never run" until one has). Tab-separated:
# command	outcome	commit	date	machine	seconds	shard
`

var outcomeRE = regexp.MustCompile(`^(pass|fail \(exit -?[0-9]+\)|fail \(no exit: [^)]*\)|never run)$`)

// ParseLedger reads the ledger: the entries by command, in file order, and
// the problems of its format.
func ParseLedger(text string) (map[string]LedgerEntry, []string, []string) {
	entries := map[string]LedgerEntry{}
	var order, problems []string
	for i, l := range strings.Split(text, "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Split(l, "\t")
		if len(f) != 7 {
			problems = append(problems, fmt.Sprintf("docs/long-ledger.tsv:%d: %d fields, want 7 (command, outcome, commit, date, machine, seconds, shard)", i+1, len(f)))
			continue
		}
		e := LedgerEntry{Command: f[0], Outcome: f[1], Commit: f[2], Date: f[3], Machine: f[4], Shard: f[6]}
		if !outcomeRE.MatchString(e.Outcome) {
			problems = append(problems, fmt.Sprintf("docs/long-ledger.tsv:%d: outcome %q: want pass, fail (exit N) or never run", i+1, e.Outcome))
		}
		if e.Outcome == "never run" {
			if f[2] != "-" || f[3] != "-" || f[4] != "-" || f[5] != "-" || f[6] != "-" {
				problems = append(problems, fmt.Sprintf("docs/long-ledger.tsv:%d: a command never run has - in every other field", i+1))
			}
		} else {
			s, err := strconv.ParseFloat(f[5], 64)
			_, terr := time.Parse(time.RFC3339, e.Date)
			if err != nil || s < 0 || terr != nil || e.Commit == "" || e.Machine == "" {
				problems = append(problems, fmt.Sprintf("docs/long-ledger.tsv:%d: want seconds, an RFC 3339 date, a commit and a machine", i+1))
			}
			e.Seconds = s
		}
		if _, dup := entries[e.Command]; dup {
			problems = append(problems, fmt.Sprintf("docs/long-ledger.tsv:%d: %q a second time", i+1, e.Command))
			continue
		}
		entries[e.Command] = e
		order = append(order, e.Command)
	}
	return entries, order, problems
}

// FormatLedger writes the entries in the order of the long commands.
func FormatLedger(entries map[string]LedgerEntry, longs []string) string {
	var b strings.Builder
	b.WriteString(ledgerHeader)
	for _, c := range longs {
		e, ok := entries[c]
		if !ok {
			e = LedgerEntry{Command: c, Outcome: "never run"}
		}
		if e.Outcome == "never run" {
			fmt.Fprintf(&b, "%s\tnever run\t-\t-\t-\t-\t-\n", c)
			continue
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%s\t%.0f\t%s\n", c, e.Outcome, e.Commit, e.Date, e.Machine, e.Seconds, e.Shard)
	}
	return b.String()
}

// RecordLedger sets e as its command's last run in the ledger at path,
// under a lock (shards may run side by side), written atomically; longs is
// the long commands in file order.
func RecordLedger(path string, e LedgerEntry, longs []string) error {
	lock, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	text, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	entries, _, _ := ParseLedger(string(text))
	entries[e.Command] = e
	tmp, err := os.CreateTemp(filepath.Dir(path), ".long-ledger.tmp*")
	if err != nil {
		return err
	}
	if _, err := tmp.WriteString(FormatLedger(entries, longs)); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// commitOf is root's HEAD, short, with -dirty when a file other than the
// ledger differs from it.
func commitOf(root string) string {
	out, err := exec.Command("git", "-C", root, "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(out))
	st, err := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=no", "--", ".",
		":(exclude)docs/long-ledger.tsv").Output()
	if err == nil && strings.TrimSpace(string(st)) != "" {
		c += "-dirty"
	}
	return c
}

// machineOf is the CPU's model name and the online CPUs.
func machineOf() string {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	cpus := 0
	if b, err := os.ReadFile("/sys/devices/system/cpu/online"); err == nil {
		for _, r := range strings.Split(strings.TrimSpace(string(b)), ",") {
			a, z, ok := strings.Cut(r, "-")
			x, _ := strconv.Atoi(a)
			y := x
			if ok {
				y, _ = strconv.Atoi(z)
			}
			cpus += y - x + 1
		}
	}
	return fmt.Sprintf("%s, %d CPUs", model, cpus)
}
