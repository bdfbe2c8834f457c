package pgconn

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"
)

var (
	sharedMu      sync.Mutex
	sharedClients = map[string]*Client{}
)

// SharedClient returns the client for cfg, creating it on first use. Provider
// instances with the same configuration in one process (Terraform configures
// the provider more than once per run; the acceptance tests serve hundreds of
// instances in-process) share pools and capability detection instead of each
// opening connections of their own. A configuration with unknown or
// unsupported arguments gets a fresh client: it never connects. opts apply
// when the client is made (the first call for cfg); they are not part of the key.
func SharedClient(cfg Config, opts ...Option) *Client {
	if len(cfg.Unknown) > 0 || cfg.Unsupported != nil {
		return NewClient(cfg, opts...)
	}
	key := configKey(cfg)
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if c, ok := sharedClients[key]; ok {
		return c
	}
	c := NewClient(cfg, opts...)
	sharedClients[key] = c
	return c
}

// configKey identifies a configuration: a hash of every field of Config,
// derived from the struct itself (encoding/json visits every exported field,
// nested structs and pointers included), so a field added to Config is part
// of the key without anyone remembering to add it; the key shows no secret
// (a password, a private key, a proxy URL's password) since it is a hash.
// TestConfigKeyCoversEveryField fails if a field ever escapes it.
func configKey(cfg Config) string {
	// such a configuration is never shared (SharedClient)
	cfg.Unsupported = nil
	// the encoding (password included) is hashed at once and never kept
	b, err := json.Marshal(cfg) //nolint:gosec // G117
	if err != nil {
		// Config holds only strings, numbers, booleans, slices and pointers to
		// structs of them: encoding cannot fail
		panic(fmt.Sprintf("pgconn: encoding the configuration key: %v", err))
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
