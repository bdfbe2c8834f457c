package pgconn

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Capabilities are facts about the server and the connected role, detected
// once per client and cached.
type Capabilities struct {
	ServerVersionNum int    // e.g. 150020
	ServerVersion    string // e.g. "15.20"
	CurrentUser      string
	IsSuperuser      bool // rolsuper of the connected role
	CanCreateRole    bool
	CanCreateDB      bool
	HasReplication   bool // rolreplication of the connected role
	HasBypassRLS     bool // rolbypassrls of the connected role
	// ManagedAdminRoles lists managed-service admin roles the connected role
	// is a member of (rds_superuser, cloudsqlsuperuser, azure_pg_admin).
	ManagedAdminRoles []string
}

// AtLeast reports whether the server is at least major version major.
func (c *Capabilities) AtLeast(major int) bool { return c.ServerVersionNum >= major*10000 }

// Capabilities returns the cached server facts, detecting them on first use.
func (c *Client) Capabilities(ctx context.Context) (*Capabilities, error) {
	c.capsMu.Lock()
	caps, capsErr := c.caps, c.capsErr
	c.capsMu.Unlock()
	if caps != nil || capsErr != nil {
		return caps, capsErr
	}
	ctx, done := c.readSlot(ctx, "") // detecting is a read like the others
	defer done()
	p, err := c.openPool(ctx, "", true)
	if err != nil {
		return nil, err
	}
	return c.detect(ctx, p)
}

func (c *Client) detect(ctx context.Context, p *pgxpool.Pool) (*Capabilities, error) {
	c.capsMu.Lock()
	defer c.capsMu.Unlock()
	if c.caps != nil || c.capsErr != nil {
		return c.caps, c.capsErr
	}
	var caps Capabilities
	// and the connection limits of the role and of every database (connlimit.go)
	var roleLimit int32
	var dbs []string
	var dbLimits []int32
	err := c.retry(ctx, func() error {
		return p.QueryRow(ctx, `
SELECT current_setting('server_version_num')::int,
       current_setting('server_version'),
       current_user, r.rolsuper, r.rolcreaterole, r.rolcreatedb, r.rolreplication, r.rolbypassrls,
       coalesce(array(SELECT m.rolname FROM pg_roles m
                      WHERE m.rolname IN ('rds_superuser', 'cloudsqlsuperuser', 'azure_pg_admin')
                        AND pg_has_role(current_user, m.oid, 'MEMBER')
                      ORDER BY 1), '{}'),
       r.rolconnlimit,
       array(SELECT datname::text FROM pg_database ORDER BY oid),
       array(SELECT datconnlimit FROM pg_database ORDER BY oid)
FROM pg_roles r WHERE r.rolname = current_user`).Scan(
			&caps.ServerVersionNum, &caps.ServerVersion, &caps.CurrentUser,
			&caps.IsSuperuser, &caps.CanCreateRole, &caps.CanCreateDB, &caps.HasReplication, &caps.HasBypassRLS, &caps.ManagedAdminRoles,
			&roleLimit, &dbs, &dbLimits)
	})
	if err != nil {
		return nil, fmt.Errorf("connecting to PostgreSQL at %s as %q: %w", c.cfg.Address(), c.cfg.Username, c.explainTargetSessionAttrs(err))
	}
	if caps.ServerVersionNum < 120000 {
		return nil, fmt.Errorf("PostgreSQL %s is not supported: this provider needs PostgreSQL 12 or later", caps.ServerVersion)
	}
	if ev := c.cfg.ExpectedVersion; ev != "" {
		if want, ok := versionNum(ev); ok && caps.ServerVersionNum < want {
			c.capsErr = &VersionError{Server: caps.ServerVersion, Expected: ev}
			return nil, c.capsErr
		}
	}
	limits := make([]int, len(dbLimits))
	for i, l := range dbLimits {
		limits[i] = int(l)
	}
	c.setLimits(caps.IsSuperuser, int(roleLimit), dbs, limits)
	c.caps = &caps
	return c.caps, nil
}

// VersionError says that the server is older than the provider's
// expected_version.
type VersionError struct {
	Server, Expected string
}

func (e *VersionError) Error() string {
	return fmt.Sprintf("the server runs PostgreSQL %s, but the provider's expected_version is %s", e.Server, e.Expected)
}

// ExpectsVersion reports whether the provider configuration sets expected_version.
func (c *Client) ExpectsVersion() bool { return c.cfg.ExpectedVersion != "" }

// Superuser reports whether the provider may use superuser-only features: the
// connected role must be superuser and the provider's `superuser` argument true.
func (c *Client) Superuser(ctx context.Context) (bool, error) {
	caps, err := c.Capabilities(ctx)
	if err != nil {
		return false, err
	}
	return caps.IsSuperuser && c.cfg.Superuser, nil
}

// versionNum turns "15", "15.4" or "9.6.2" into server_version_num form.
func versionNum(v string) (int, bool) {
	parts := strings.Split(v, ".")
	nums := make([]int, 3)
	for i := 0; i < len(parts) && i < 3; i++ {
		n, err := strconv.Atoi(parts[i])
		if err != nil {
			return 0, false
		}
		nums[i] = n
	}
	if nums[0] >= 10 {
		return nums[0]*10000 + nums[1], true
	}
	return nums[0]*10000 + nums[1]*100 + nums[2], true
}
