package provider

import (
	"os"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	// The acceptance tests serve hundreds of provider instances in one process
	// and never close their pools: idle connections must not pile up.
	maxConnIdleTime = 3 * time.Second
	os.Exit(m.Run())
}
