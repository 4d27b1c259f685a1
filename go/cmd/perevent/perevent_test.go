package main

import (
	"math"
	"os"
	"strings"
	"testing"
)

func readFixture(t *testing.T, name string) row {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := readRow(f)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The fixtures are real `bench --per-event K --host-calls both --work u64
// --format json` documents (K = 1, 4): every series and saving is read.
func TestReadsASweep(t *testing.T) {
	rows, err := sortRows([]row{readFixture(t, "k4.json"), readFixture(t, "k1.json")})
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].K != 1 || rows[1].K != 4 {
		t.Fatalf("K %d, %d: want 1, 4", rows[0].K, rows[1].K)
	}
	for _, r := range rows {
		for _, s := range seriesNames {
			if v := r.NsEvent[s]; !(v > 0) {
				t.Errorf("K = %d: %s: %v ns per event", r.K, s, v)
			}
		}
		for _, key := range []string{"sync", "async", "C"} {
			if s, ok := r.Saving[key]; !ok || !(s.Est > 0) {
				t.Errorf("K = %d: no batched/per-field %s: %+v", r.K, key, s)
			}
		}
	}
	svg, err := chart(rows)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range seriesNames {
		if !strings.Contains(string(svg), s) {
			t.Errorf("the chart's legend lacks %q", s)
		}
	}
	tab := table(rows)
	if strings.Count(tab, "\n| ") != 2 || !strings.Contains(tab, "| 4 |") {
		t.Errorf("want a row per K:\n%s", tab)
	}
}

func TestHalvingAndAsyncWins(t *testing.T) {
	rows := []row{
		{K: 1, NsEvent: map[string]float64{"per-field sync": 100, "per-field async": 1000, "batched sync": 100, "batched async": 900},
			Saving: map[string]ratio{"sync": {1, 0.99, 1.01}, "async": {1, 0.9, 1.1}}},
		{K: 2, NsEvent: map[string]float64{"per-field sync": 200, "per-field async": 150},
			Saving: map[string]ratio{"sync": {0.6, 0.58, 0.62}, "async": {0.45, 0.4, 0.55}}},
		{K: 4, NsEvent: map[string]float64{"per-field sync": 400},
			Saving: map[string]ratio{"sync": {0.4, 0.38, 0.42}, "async": {0.3, 0.28, 0.33}}},
	}
	if k, sure := halvingK(rows, "sync"); k != 4 || !sure {
		t.Errorf("sync halves at %d (sure %v), want 4, sure", k, sure)
	}
	if k, sure := halvingK(rows, "async"); k != 2 || sure {
		t.Errorf("async halves at %d (sure %v), want 2, not sure (its interval reaches 0.55)", k, sure)
	}
	if k, _ := halvingK(rows, "C"); k != 0 {
		t.Errorf("C: no saving given, halving at %d", k)
	}
	if w := asyncWins(rows); len(w) != 1 || w[0] != "K = 2 per-field" {
		t.Errorf("async wins %v, want only K = 2 per-field", w)
	}
	if _, err := sortRows([]row{{K: 2}, {K: 2}}); err == nil {
		t.Error("two documents of one K accepted")
	}
}

func TestRefusesOtherDocuments(t *testing.T) {
	for _, doc := range []string{`not json`, `{"options":{"per_event":0,"host_calls":"both"},"paired":{}}`,
		`{"options":{"per_event":4,"host_calls":"batched"}}`} {
		if _, err := readRow(strings.NewReader(doc)); err == nil {
			t.Errorf("%s: accepted", doc)
		}
	}
	if !math.IsNaN(median(nil)) {
		t.Error("the median of nothing is a number")
	}
}
