package pgconn

import "testing"

func TestVersionNum(t *testing.T) {
	for in, want := range map[string]int{"15": 150000, "15.4": 150004, "9.6.2": 90602, "12.1.0": 120001} {
		if got, ok := versionNum(in); !ok || got != want {
			t.Errorf("versionNum(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	if _, ok := versionNum("x"); ok {
		t.Error("versionNum accepted x")
	}
}
