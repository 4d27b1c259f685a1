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

// A json document (bench --per-event 1 --host-calls both --work json
// --payload-size 2048) is the realistic field's row, not a K of the sweep.
func TestJSONRowsAndCrossingShare(t *testing.T) {
	rows, err := sortRows([]row{readFixture(t, "json2048.json"), readFixture(t, "k4.json"), readFixture(t, "k1.json")})
	if err != nil {
		t.Fatal(err)
	}
	sweep, js := split(rows)
	if len(sweep) != 2 || len(js) != 1 || js[0].Work != "json" || js[0].Payload != 2048 || js[0].K != 1 {
		t.Fatalf("sweep %d rows, json %+v", len(sweep), js)
	}
	for _, s := range jsonSeries {
		v := crossingShare(sweep[0], js[0], s.name)
		if !(v > 0 && v < 1) {
			t.Errorf("%s: the crossing's share of the json field is %v, want in (0, 1)", s.name, v)
		}
	}
	tab := table(rows)
	if !strings.Contains(tab, "| json, 2048-byte document |") || strings.Count(tab, "\n| ") != 2+3 {
		t.Errorf("want the sweep's 2 rows, the json table's header and 2 rows:\n%s", tab)
	}
	base := row{K: 1, NsEvent: map[string]float64{"batched sync": 100}}
	if v := crossingShare(base, row{K: 1, NsEvent: map[string]float64{"batched sync": 400}}, "batched sync"); v != 0.25 {
		t.Errorf("share %v, want 0.25", v)
	}
	if v := crossingShare(base, row{K: 2, NsEvent: map[string]float64{"batched sync": 400}}, "batched sync"); !math.IsNaN(v) {
		t.Errorf("a json row of K = 2 gave a share: %v", v)
	}
	if _, err := chart(rows[:1]); err != nil {
		t.Errorf("a sweep of one K: %v", err)
	}
	if _, err := chart(nil); err == nil {
		t.Error("an empty chart drawn")
	}
	if _, err := sortRows([]row{{K: 1, Work: "json", Payload: 256}, {K: 1, Work: "json", Payload: 256}}); err == nil {
		t.Error("two json documents of one size accepted")
	}
}
