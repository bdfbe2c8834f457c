package pgconn

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// Several hosts, as libpq: Config.Host is one host or a comma-separated list,
// Config.Ports one port for all of them or one per host, and
// Config.TargetSessionAttrs picks the server among them (pgx's own support:
// each host is tried in turn until one passes the check).

// TargetSessionAttrs lists the values of Config.TargetSessionAttrs (libpq's).
var TargetSessionAttrs = []string{"any", "read-write", "read-only", "primary", "standby", "prefer-standby"}

// HostList is the list of hosts of cfg (one, or those of a comma-separated list).
func (cfg Config) HostList() []string {
	hosts := strings.Split(cfg.Host, ",")
	for i, h := range hosts {
		hosts[i] = strings.TrimSpace(h)
	}
	return hosts
}

// PortList is the port of each host of HostList.
func (cfg Config) PortList() []int {
	hosts := cfg.HostList()
	out := make([]int, len(hosts))
	for i := range hosts {
		switch {
		case len(cfg.Ports) == len(hosts):
			out[i] = cfg.Ports[i]
		case len(cfg.Ports) > 0:
			out[i] = cfg.Ports[0]
		default:
			out[i] = cfg.Port
		}
	}
	return out
}

// ParsePorts reads a port or a comma-separated list of ports for hosts hosts
// (libpq: one port for all hosts, or exactly one per host).
func ParsePorts(s string, hosts int) ([]int, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 1 && len(parts) != hosts {
		return nil, fmt.Errorf("%d ports for %d hosts: give one port for all hosts or one per host", len(parts), hosts)
	}
	out := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("port %q is not a number between 1 and 65535", strings.TrimSpace(p))
		}
		out[i] = n
	}
	return out, nil
}

// CheckHosts reports an empty entry in a comma-separated host list.
func CheckHosts(s string) error {
	for i, h := range strings.Split(s, ",") {
		if strings.TrimSpace(h) == "" && strings.Contains(s, ",") {
			return fmt.Errorf("host number %d of %q is empty", i+1, s)
		}
	}
	return nil
}

// hostPortSettings are the host and port keywords of a connection string for cfg.
func (cfg Config) hostPortSettings() []string {
	ports := cfg.PortList()
	ps := make([]string, len(ports))
	for i, p := range ports {
		ps[i] = strconv.Itoa(p)
	}
	return []string{"host=" + connValue(strings.Join(cfg.HostList(), ",")), "port=" + connValue(strings.Join(ps, ","))}
}

// readOnlyPoolValidate is the server check of a read-only pool. Its sessions
// start with default_transaction_read_only = on (the provider's own doing), so
// pgx's checks that look at transaction_read_only would take every server for
// a read-only one: read-write asks for a primary instead, read-only for a
// standby.
func readOnlyPoolValidate(attrs string) pgconn.ValidateConnectFunc {
	switch attrs {
	case "read-write":
		return pgconn.ValidateConnectTargetSessionAttrsPrimary
	case "read-only":
		return pgconn.ValidateConnectTargetSessionAttrsStandby
	}
	return nil
}

// explainTargetSessionAttrs says which hosts were tried when none of them
// matched target_session_attrs (a failover under way, or no primary at all).
func (c *Client) explainTargetSessionAttrs(err error) error {
	attrs := c.cfg.TargetSessionAttrs
	if err == nil || attrs == "" || attrs == "any" {
		return err
	}
	var ce *pgconn.ConnectError
	var done *noTargetServerError
	if !errors.As(err, &ce) || errors.As(err, &done) || !strings.Contains(err.Error(), "ValidateConnect failed") {
		return err
	}
	return &noTargetServerError{msg: fmt.Sprintf("no server among %s matches target_session_attrs = %q (a failover under way, or no server of that kind among the hosts)",
		c.cfg.Address(), attrs), err: err}
}

// noTargetServerError: no host matched target_session_attrs.
type noTargetServerError struct {
	msg string
	err error
}

func (e *noTargetServerError) Error() string { return e.msg + ": " + e.err.Error() }
func (e *noTargetServerError) Unwrap() error { return e.err }

// Address names the server(s) of cfg in messages: host:port, a list of them,
// or the Cloud SQL instance.
func (cfg Config) Address() string {
	if cfg.CloudSQL != nil {
		return "Cloud SQL instance " + cfg.CloudSQL.Instance
	}
	hosts, ports := cfg.HostList(), cfg.PortList()
	out := make([]string, len(hosts))
	for i, h := range hosts {
		if strings.HasPrefix(h, "/") {
			out[i] = fmt.Sprintf("%s (port %d)", h, ports[i])
		} else {
			out[i] = net.JoinHostPort(h, strconv.Itoa(ports[i]))
		}
	}
	return strings.Join(out, ", ")
}
