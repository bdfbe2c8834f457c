package pg

import "testing"

func TestSharedClient(t *testing.T) {
	a := SharedClient(Config{Host: "h", Port: 1, Password: "x"})
	b := SharedClient(Config{Host: "h", Port: 1, Password: "x"})
	c := SharedClient(Config{Host: "h", Port: 1, Password: "y"})
	if a != b || a == c {
		t.Fatal("identical configurations must share a client, different ones must not")
	}
	u1 := SharedClient(Config{Unknown: []string{"host"}})
	u2 := SharedClient(Config{Unknown: []string{"host"}})
	if u1 == u2 {
		t.Fatal("configurations with unknown values must not be shared")
	}
}
