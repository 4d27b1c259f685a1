package sample

import (
	"strings"
	"testing"
)

func TestConfigAsyncDefaultsOn(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{{"", true}, {"{}", true}, {`{"async":true}`, true}, {`{"async":false}`, false}} {
		c, err := ParseConfig(tc.in)
		if err != nil || c.Async != tc.want {
			t.Errorf("ParseConfig(%q) = %+v, %v; want async %v", tc.in, c, err, tc.want)
		}
	}
	if _, err := ParseConfig("{"); err == nil {
		t.Error("a broken configuration was accepted")
	}
}

func TestUser(t *testing.T) {
	if u, ok := User(strings.NewReader(`{"user":"alice","n":3}`)); !ok || u != "alice" {
		t.Errorf("got %q %v", u, ok)
	}
	for _, in := range []string{"", "not json", `{"n":3}`} {
		if _, ok := User(strings.NewReader(in)); ok {
			t.Errorf("%q gave a value", in)
		}
	}
}

func TestParseSpin(t *testing.T) {
	if n, err := ParseSpin(""); n != 0 || err != nil {
		t.Errorf("empty: %d %v", n, err)
	}
	if n, err := ParseSpin("2500"); n != 2500 || err != nil {
		t.Errorf("2500: %d %v", n, err)
	}
	if _, err := ParseSpin("-1"); err == nil {
		t.Error("a negative spin was accepted")
	}
}
