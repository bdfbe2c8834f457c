package pgconn

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHostPortSettings: a host list and its ports become libpq's keywords.
func TestHostPortSettings(t *testing.T) {
	got := Config{Host: "a, b", Port: 5432}.hostPortSettings()
	if diff := cmp.Diff([]string{"host='a,b'", "port='5432,5432'"}, got); diff != "" {
		t.Error(diff)
	}
	got = Config{Host: "a,/run/pg", Ports: []int{1, 2}}.hostPortSettings()
	if diff := cmp.Diff([]string{"host='a,/run/pg'", "port='1,2'"}, got); diff != "" {
		t.Error(diff)
	}
}
