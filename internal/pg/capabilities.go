package pg

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
	// ManagedAdminRoles lists managed-service admin roles the connected role
	// is a member of (rds_superuser, cloudsqlsuperuser, azure_pg_admin).
	ManagedAdminRoles []string
}

// AtLeast reports whether the server is at least major version major.
func (c *Capabilities) AtLeast(major int) bool { return c.ServerVersionNum >= major*10000 }

// Capabilities returns the cached server facts, detecting them on first use.
func (c *Client) Capabilities(ctx context.Context) (*Capabilities, error) {
	c.capsMu.Lock()
	caps := c.caps
	c.capsMu.Unlock()
	if caps != nil {
		return caps, nil
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
	if c.caps != nil {
		return c.caps, nil
	}
	var caps Capabilities
	err := c.retry(ctx, func() error {
		return p.QueryRow(ctx, `
SELECT current_setting('server_version_num')::int,
       current_setting('server_version'),
       current_user, r.rolsuper, r.rolcreaterole, r.rolcreatedb,
       coalesce(array(SELECT m.rolname FROM pg_roles m
                      WHERE m.rolname IN ('rds_superuser', 'cloudsqlsuperuser', 'azure_pg_admin')
                        AND pg_has_role(current_user, m.oid, 'MEMBER')
                      ORDER BY 1), '{}')
FROM pg_roles r WHERE r.rolname = current_user`).Scan(
			&caps.ServerVersionNum, &caps.ServerVersion, &caps.CurrentUser,
			&caps.IsSuperuser, &caps.CanCreateRole, &caps.CanCreateDB, &caps.ManagedAdminRoles)
	})
	if err != nil {
		return nil, fmt.Errorf("connecting to PostgreSQL at %s as %q: %w", c.cfg.Address(), c.cfg.Username, c.explainTargetSessionAttrs(err))
	}
	if caps.ServerVersionNum < 120000 {
		return nil, fmt.Errorf("PostgreSQL %s is not supported: this provider needs PostgreSQL 12 or later", caps.ServerVersion)
	}
	if ev := c.cfg.ExpectedVersion; ev != "" {
		if want, ok := versionNum(ev); ok && caps.ServerVersionNum < want {
			return nil, fmt.Errorf("the server runs PostgreSQL %s, but the provider's expected_version is %s", caps.ServerVersion, ev)
		}
	}
	c.caps = &caps
	return c.caps, nil
}

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
