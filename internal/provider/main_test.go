package provider

import (
	"os"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	// The acceptance tests serve hundreds of provider instances in one process;
	// those with the same configuration share one client (pg.SharedClient) and
	// never close its pools. Idle connections close after 10 s, so they do not
	// pile up, yet live across the commands of one test step. The shared
	// client serves every test running in parallel, so its default bound is
	// raised: at 20 it closed idle connections to make room so often that
	// backends were started three times as often (and PostgreSQL's CPU time,
	// mostly backend start and exit, was 1.7 times as high).
	maxConnIdleTime = 10 * time.Second
	testMaxConnections = 120
	os.Exit(m.Run())
}
