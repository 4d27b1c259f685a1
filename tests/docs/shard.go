package docs

// The long commands in shards (issue 35): make check-docs-long SHARD=k/N
// runs the k-th of N groups of docs/long-commands.txt's long forms, so that
// all of them can run on one commit in sittings a working day holds.
//
// A command's weight is what its last passing run took (the ledger,
// docs/long-ledger.tsv), or its estimate: line where it never passed. A
// command and those that name it in a with: line (they read what it
// writes) form one group. Groups are placed largest first, each on the
// shard with the least weight so far (longest processing time first: every
// shard within 4/3 of the best split), ties by position in the file, so a
// plan depends only on the file and the ledger.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// ParseShard reads "k/N": shard k (1-based) of N.
func ParseShard(s string) (k, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return 0, 0, fmt.Errorf("SHARD=%q: want k/N with 1 <= k <= N (2/4)", s)
	}
	return k, n, nil
}

// ShardPlan is where each long command runs and what each shard weighs.
type ShardPlan struct {
	Of      map[string]int  // long command -> its shard, 1-based
	Weight  []time.Duration // per shard, index 0 is shard 1
	Members [][]string      // per shard, the commands in file order
}

// Weight is a command's planned duration: its last passing run's, else
// its estimate.
func Weight(s Smoke, ledger map[string]LedgerEntry) time.Duration {
	if e, ok := ledger[s.Long]; ok && e.Outcome == "pass" && e.Seconds > 0 {
		return time.Duration(e.Seconds * float64(time.Second))
	}
	return s.Estimate
}

// Plan splits the long commands into n shards.
func Plan(smokes []Smoke, ledger map[string]LedgerEntry, n int) ShardPlan {
	index := map[string]int{}
	for i, s := range smokes {
		index[s.Long] = i
	}
	// a group is led by the first command of a with: chain
	lead := func(i int) int {
		for seen := 0; smokes[i].With != "" && seen < len(smokes); seen++ {
			j, ok := index[smokes[i].With]
			if !ok {
				break
			}
			i = j
		}
		return i
	}
	type group struct {
		first  int
		weight time.Duration
		cmds   []int
	}
	byLead := map[int]*group{}
	var groups []*group
	for i, s := range smokes {
		l := lead(i)
		g := byLead[l]
		if g == nil {
			g = &group{first: l}
			byLead[l] = g
			groups = append(groups, g)
		}
		g.cmds = append(g.cmds, i)
		g.weight += Weight(s, ledger)
	}
	sort.SliceStable(groups, func(a, b int) bool {
		if groups[a].weight != groups[b].weight {
			return groups[a].weight > groups[b].weight
		}
		return groups[a].first < groups[b].first
	})
	p := ShardPlan{Of: map[string]int{}, Weight: make([]time.Duration, n), Members: make([][]string, n)}
	for _, g := range groups {
		best := 0
		for k := 1; k < n; k++ {
			if p.Weight[k] < p.Weight[best] {
				best = k
			}
		}
		p.Weight[best] += g.weight
		for _, i := range g.cmds {
			p.Of[smokes[i].Long] = best + 1
		}
	}
	for _, s := range smokes {
		k := p.Of[s.Long] - 1
		p.Members[k] = append(p.Members[k], s.Long)
	}
	return p
}

// String is the plan as make long-plan prints it.
func (p ShardPlan) String() string {
	var b strings.Builder
	var total time.Duration
	for k := range p.Weight {
		total += p.Weight[k]
	}
	fmt.Fprintf(&b, "%d shards, %v of long commands in all (the ledger's last passing runs, else the estimates)\n",
		len(p.Weight), total.Round(time.Minute))
	for k, w := range p.Weight {
		fmt.Fprintf(&b, "shard %d/%d: %v, %d commands\n", k+1, len(p.Weight), w.Round(time.Minute), len(p.Members[k]))
		for _, c := range p.Members[k] {
			fmt.Fprintf(&b, "    %s\n", c)
		}
	}
	return b.String()
}
