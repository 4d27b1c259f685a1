package layers

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every test that mk/sanitize.mk's SAN_TESTS names under ASan is a test of
// tests/integration: a renamed or removed one would drop out of the
// sanitized run silently (go test -run matches nothing and passes).
func TestSanitizedTestsExist(t *testing.T) {
	mk, err := os.ReadFile("../../mk/sanitize.mk")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^SAN_TESTS := (.+)$`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("mk/sanitize.mk has no SAN_TESTS := line")
	}
	files, _ := filepath.Glob("../../tests/integration/*_test.go")
	var src strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	names := strings.Split(string(m[1]), "|")
	if len(names) < 10 {
		t.Errorf("SAN_TESTS names %d tests", len(names))
	}
	for _, n := range names {
		if !strings.Contains(src.String(), "\nfunc "+n+"(t *testing.T)") {
			t.Errorf("SAN_TESTS names %s, which is no test of tests/integration", n)
		}
	}
}
