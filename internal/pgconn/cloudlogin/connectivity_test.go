package cloudlogin

import (
	"testing"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// TestParseCloudSQLInstance: the spellings of an instance connection name
// cyrilgdn accepted (colons, slashes) and a domain-scoped project are
// connection names; addresses, host names, socket directories and host lists
// are not.
func TestParseCloudSQLInstance(t *testing.T) {
	for host, want := range map[string]string{
		"proj:europe-west1:inst":             "proj:europe-west1:inst",
		"proj/europe-west1/inst":             "proj:europe-west1:inst",
		"example.com:proj:europe-west1:inst": "example.com:proj:europe-west1:inst",
		"10.0.0.3":                           "",
		"fd00::3":                            "",
		"db.example.com":                     "",
		"/cloudsql/proj:europe-west1:inst":   "",
		"a:b:c,d:e:f":                        "",
		"proj:inst":                          "",
		"":                                   "",
	} {
		if got := ParseCloudSQLInstance(host); got != want {
			t.Errorf("ParseCloudSQLInstance(%q) = %q, want %q", host, got, want)
		}
	}
}

// TestSigningEndpoint: an RDS IAM token is signed for aws_rds_iam_endpoint
// (its port, else the first host's), else for the first host and its port.
func TestSigningEndpoint(t *testing.T) {
	for _, tc := range []struct {
		name, host, endpoint string
		port                 int
		ports                []int
		wantHost             string
		wantPort             int
	}{
		{name: "host", host: "db.rds.amazonaws.com", port: 5432, wantHost: "db.rds.amazonaws.com", wantPort: 5432},
		{name: "several hosts", host: "a,b", ports: []int{6000, 6001}, wantHost: "a", wantPort: 6000},
		{name: "endpoint with a port", host: "127.0.0.1", port: 15432, endpoint: "db.rds.amazonaws.com:5432", wantHost: "db.rds.amazonaws.com", wantPort: 5432},
		{name: "endpoint without a port", host: "127.0.0.1", port: 15432, endpoint: "db.rds.amazonaws.com", wantHost: "db.rds.amazonaws.com", wantPort: 15432},
		{name: "IPv6 endpoint", host: "127.0.0.1", port: 1, endpoint: "[fd00::5]:5432", wantHost: "fd00::5", wantPort: 5432},
	} {
		h, p := signingEndpoint(pgconn.Config{Host: tc.host, Port: tc.port, Ports: tc.ports, CloudAuth: &pgconn.CloudAuth{AWSEndpoint: tc.endpoint}})
		if h != tc.wantHost || p != tc.wantPort {
			t.Errorf("%s: %s:%d, want %s:%d", tc.name, h, p, tc.wantHost, tc.wantPort)
		}
	}
}
