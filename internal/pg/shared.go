package pg

import (
	"crypto/sha256"
	"encoding/hex"
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
// unsupported arguments gets a fresh client: it never connects.
func SharedClient(cfg Config) *Client {
	if len(cfg.Unknown) > 0 || cfg.Unsupported != nil {
		return NewClient(cfg)
	}
	key := configKey(cfg)
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if c, ok := sharedClients[key]; ok {
		return c
	}
	c := NewClient(cfg)
	sharedClients[key] = c
	return c
}

// configKey identifies a configuration; the password only as a hash.
func configKey(cfg Config) string {
	pw := sha256.Sum256([]byte(cfg.Password))
	cc := ""
	if cfg.ClientCert != nil {
		sum := sha256.Sum256([]byte(cfg.ClientCert.Cert + "\x00" + cfg.ClientCert.Key))
		cc = fmt.Sprintf("%x/%v", sum, cfg.ClientCert.Inline)
	}
	cloud := ""
	if cfg.CloudAuth != nil {
		cloud = fmt.Sprintf("%#v", *cfg.CloudAuth)
	}
	if cfg.CloudSQL != nil {
		cloud += fmt.Sprintf("|cloudsql:%#v", *cfg.CloudSQL)
	}
	return fmt.Sprintf("%q|%d|%v|%q|%q|%q|%s|%q|%q|%s|%s|%d|%v|%q|%q|%q|%s|%s|%s|%s|%s",
		cfg.Host, cfg.Port, cfg.Ports, cfg.TargetSessionAttrs, cfg.Database, cfg.Username, hex.EncodeToString(pw[:]), cfg.SSLMode, cfg.SSLRootCert, cc,
		cfg.ConnectTimeout, cfg.MaxConnections, cfg.Superuser, cfg.ExpectedVersion, cfg.DatabaseUsername, cfg.ApplicationName,
		cfg.MaxRetryDuration, cfg.StatementTimeout, cfg.LockTimeout, cfg.MaxConnIdleTime, cloud) + networkKey(cfg)
}
