package acctest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Clusters of one test: a primary started with scripts/testdb (the server
// binaries of the cluster under test: same PG_VERSION), and streaming standbys
// of it, for failover tests that would disturb the shared server.

// Cluster is a throwaway cluster of one test, removed when the test ends.
type Cluster struct {
	Dir, BinDir              string
	Port                     int
	SuperPassword            string
	ManagedUser, ManagedPass string
	standby                  bool
}

var envAssign = regexp.MustCompile(`(\w+)='?([^' \n]*)'?`)

// repoRoot is the directory of go.mod above the working directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}

// StartCluster starts a cluster of the version under test (scripts/testdb
// start, so it has the managed admin of env-managed.sh too) and stops it when
// the test ends.
func StartCluster(t *testing.T) *Cluster {
	t.Helper()
	dir := filepath.Join(os.TempDir(), "pgtf-cluster-"+RandName("c"))
	script := filepath.Join(repoRoot(t), "scripts", "testdb")
	out, err := exec.Command(script, "start", dir).CombinedOutput()
	t.Cleanup(func() { _ = exec.Command(script, "stop", dir).Run() })
	if err != nil {
		t.Fatalf("starting a cluster: %v\n%s", err, out)
	}
	c := &Cluster{Dir: dir}
	b, err := os.ReadFile(filepath.Join(dir, "bindir"))
	if err != nil {
		t.Fatal(err)
	}
	c.BinDir = strings.TrimSpace(string(b))
	var port string
	for file, vars := range map[string]map[string]*string{
		"env.sh":         {"PGPORT": &port, "PGPASSWORD": &c.SuperPassword},
		"env-managed.sh": {"PGUSER": &c.ManagedUser, "PGPASSWORD": &c.ManagedPass},
	} {
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range envAssign.FindAllStringSubmatch(string(b), -1) {
			if p, ok := vars[m[1]]; ok {
				*p = m[2]
			}
		}
	}
	if c.Port, err = strconv.Atoi(port); err != nil {
		t.Fatalf("cluster port %q: %v", port, err)
	}
	return c
}

// asOwner runs a server program as the cluster's OS user (postgres when root).
func asOwner(env []string, name string, args ...string) *exec.Cmd {
	if os.Geteuid() == 0 {
		args = append([]string{"-u", "postgres", "--", name}, args...)
		name = "runuser"
	}
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

// Admin is the admin of the current mode: user, password, and whether it is a superuser.
func (c *Cluster) Admin() (user, password string, super bool) {
	if Managed() {
		return c.ManagedUser, c.ManagedPass, false
	}
	return "postgres", c.SuperPassword, true
}

// Conn opens a superuser session to database postgres.
func (c *Cluster) Conn(ctx context.Context) (*pgx.Conn, error) {
	return pgx.Connect(ctx, fmt.Sprintf("host=127.0.0.1 port=%d user=postgres password='%s' dbname=postgres sslmode=disable connect_timeout=10 application_name=pgtf-acctest",
		c.Port, c.SuperPassword))
}

// Exec runs statements as the superuser, failing the test on an error.
func (c *Cluster) Exec(t *testing.T, stmts ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := c.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, s := range stmts {
		if _, err := conn.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// Count runs a count query as the superuser ($1 = arg).
func (c *Cluster) Count(q, arg string) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := c.Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Close(ctx)
	var n int
	err = conn.QueryRow(ctx, q, arg).Scan(&n)
	return n, err
}

// InRecovery reports whether the server is a standby.
func (c *Cluster) InRecovery(t *testing.T) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := c.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var r bool
	if err := conn.QueryRow(ctx, "SELECT pg_is_in_recovery()").Scan(&r); err != nil {
		t.Fatal(err)
	}
	return r
}

func (c *Cluster) pgCtl(args ...string) error {
	args = append([]string{"-D", filepath.Join(c.Dir, "data"), "-l", filepath.Join(c.Dir, "log", "postgresql.log")}, args...)
	out, err := asOwner(nil, filepath.Join(c.BinDir, "pg_ctl"), args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("pg_ctl %s: %w: %s", strings.Join(args, " "), err, out)
	}
	return nil
}

// Stop stops the server (fast shutdown: sessions are terminated), as a failed primary.
func (c *Cluster) Stop() error { return c.pgCtl("-m", "fast", "-w", "-t", "60", "stop") }

// Promote makes a standby the primary, waiting until it accepts writes.
func (c *Cluster) Promote() error { return c.pgCtl("-w", "-t", "60", "promote") }

// StartStandby makes a streaming standby of c (a physical replication slot
// keeps the WAL it needs), starts it on a free port and stops it when the test
// ends. The base backup is pg_basebackup's when the server binaries have it
// (Debian's do), else the low-level API's (pg_backup_start, a file copy,
// pg_backup_stop: the npm builds of testdb have no pg_basebackup), which
// PostgreSQL documents as the same.
func (c *Cluster) StartStandby(t *testing.T) *Cluster {
	t.Helper()
	s := &Cluster{Dir: filepath.Join(os.TempDir(), "pgtf-standby-"+RandName("s")), BinDir: c.BinDir, SuperPassword: c.SuperPassword,
		ManagedUser: c.ManagedUser, ManagedPass: c.ManagedPass, standby: true}
	t.Cleanup(func() {
		if _, err := os.Stat(filepath.Join(s.Dir, "data", "postmaster.pid")); err == nil {
			_ = s.pgCtl("-m", "immediate", "-w", "stop")
		}
		_ = os.RemoveAll(s.Dir)
	})
	for _, d := range []string{"", "log", "run"} {
		if err := os.MkdirAll(filepath.Join(s.Dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	slot := "tfacc_" + strings.ReplaceAll(RandName("standby"), "-", "_")
	c.Exec(t, fmt.Sprintf("SELECT pg_create_physical_replication_slot('%s', true)", slot))
	data := filepath.Join(s.Dir, "data")
	if pgbb := filepath.Join(c.BinDir, "pg_basebackup"); isExecutable(pgbb) {
		if err := chownToOwner(s.Dir, filepath.Join(s.Dir, "log"), filepath.Join(s.Dir, "run")); err != nil {
			t.Fatal(err)
		}
		out, err := asOwner([]string{"PGPASSWORD=" + c.SuperPassword}, pgbb, "-h", "127.0.0.1", "-p", strconv.Itoa(c.Port), "-U", "postgres",
			"-D", data, "-X", "stream", "-S", slot, "-R", "-c", "fast").CombinedOutput()
		if err != nil {
			t.Fatalf("pg_basebackup: %v: %s", err, out)
		}
	} else {
		if err := c.lowLevelBackup(data); err != nil {
			t.Fatalf("base backup: %v", err)
		}
		auto := fmt.Sprintf("\nprimary_conninfo = 'host=127.0.0.1 port=%d user=postgres password=''%s'' application_name=tfacc_standby'\n", c.Port, c.SuperPassword)
		if err := appendFile(filepath.Join(data, "postgresql.auto.conf"), auto); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(data, "standby.signal"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := chownToOwner(s.Dir, filepath.Join(s.Dir, "log"), filepath.Join(s.Dir, "run")); err != nil {
			t.Fatal(err)
		}
		if err := chownTree(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := appendFile(filepath.Join(data, "postgresql.auto.conf"), fmt.Sprintf("primary_slot_name = '%s'\nunix_socket_directories = '%s'\n", slot, filepath.Join(s.Dir, "run"))); err != nil {
		t.Fatal(err)
	}
	for tries := 0; ; tries++ {
		s.Port = 20000 + int(time.Now().UnixNano()%20000)
		err := s.pgCtl("-o", "-p "+strconv.Itoa(s.Port), "-w", "-t", "60", "start")
		if err == nil {
			break
		}
		if tries >= 4 {
			b, _ := os.ReadFile(filepath.Join(s.Dir, "log", "postgresql.log"))
			t.Fatalf("starting the standby: %v\n%s", err, b)
		}
	}
	// the standby has caught up once it replays what the primary wrote last
	c.Exec(t, "CREATE TABLE IF NOT EXISTS tfacc_standby_probe (id int)", "DROP TABLE tfacc_standby_probe")
	if err := s.waitReplay(c); err != nil {
		t.Fatal(err)
	}
	return s
}

// waitReplay waits until the standby has replayed the primary's current WAL.
func (c *Cluster) waitReplay(primary *Cluster) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	pc, err := primary.Conn(ctx)
	if err != nil {
		return err
	}
	defer pc.Close(ctx)
	var lsn string
	if err := pc.QueryRow(ctx, "SELECT pg_current_wal_lsn()::text").Scan(&lsn); err != nil {
		return err
	}
	for ctx.Err() == nil {
		if sc, err := c.Conn(ctx); err == nil {
			var ok bool
			err = sc.QueryRow(ctx, "SELECT coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false)", lsn).Scan(&ok)
			sc.Close(ctx)
			if err == nil && ok {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("the standby did not replay %s in time", lsn)
}

// WaitReplay waits until standby s has replayed everything the primary wrote so far.
func (c *Cluster) WaitReplay(t *testing.T, s *Cluster) {
	t.Helper()
	if err := s.waitReplay(c); err != nil {
		t.Fatal(err)
	}
}

// lowLevelBackup copies the data directory between pg_backup_start and
// pg_backup_stop (PostgreSQL 15+; pg_start_backup/pg_stop_backup before) and
// writes the backup label the copy needs.
func (c *Cluster) lowLevelBackup(dest string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	conn, err := c.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	var num int
	if err := conn.QueryRow(ctx, "SELECT current_setting('server_version_num')::int").Scan(&num); err != nil {
		return err
	}
	start, stop := "SELECT pg_backup_start('tfacc', true)", "SELECT labelfile, coalesce(spcmapfile, '') FROM pg_backup_stop(true)"
	if num < 150000 {
		start, stop = "SELECT pg_start_backup('tfacc', true, false)", "SELECT labelfile, coalesce(spcmapfile, '') FROM pg_stop_backup(false, true)"
	}
	if _, err := conn.Exec(ctx, start); err != nil {
		return err
	}
	if err := copyDataDir(filepath.Join(c.Dir, "data"), dest); err != nil {
		return err
	}
	var label, spcmap string
	if err := conn.QueryRow(ctx, stop).Scan(&label, &spcmap); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dest, "backup_label"), []byte(label), 0o600); err != nil {
		return err
	}
	if spcmap != "" {
		return os.WriteFile(filepath.Join(dest, "tablespace_map"), []byte(spcmap), 0o600)
	}
	return nil
}

// copyDataDir copies a running server's data directory for a base backup:
// without the WAL, the replication slots, the temporary statistics, the
// postmaster's files and the server log; files that vanish meanwhile are skipped.
func copyDataDir(src, dest string) error {
	skipContents := map[string]bool{"pg_wal": true, "pg_replslot": true, "pg_stat_tmp": true, "pg_dynshmem": true, "pg_notify": true, "pg_serial": true, "pg_snapshots": true, "pg_subtrans": true}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dest, rel)
		if d.IsDir() {
			if err := os.MkdirAll(target, 0o700); err != nil {
				return err
			}
			if skipContents[rel] {
				if rel == "pg_wal" {
					return os.MkdirAll(filepath.Join(target, "archive_status"), 0o700)
				}
				return fs.SkipDir
			}
			return nil
		}
		if rel == "postmaster.pid" || rel == "postmaster.opts" || rel == "backup_label" || rel == "tablespace_map" || !d.Type().IsRegular() {
			return nil
		}
		in, err := os.Open(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		} else if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}

// chownToOwner gives directories to the server's OS user (root runs the
// server as postgres), leaving their contents alone.
func chownToOwner(dirs ...string) error {
	uid, gid, ok := ownerIDs()
	if !ok {
		return nil
	}
	for _, d := range dirs {
		if err := os.Chown(d, uid, gid); err != nil {
			return err
		}
	}
	return os.Chmod(dirs[0], 0o755)
}

// chownTree gives a directory tree to the server's OS user, the data directory mode 0700.
func chownTree(root string) error {
	if err := os.Chmod(root, 0o700); err != nil {
		return err
	}
	uid, gid, ok := ownerIDs()
	if !ok {
		return nil
	}
	return filepath.WalkDir(root, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, gid)
	})
}

// ownerIDs is the uid and gid of the OS user postgres when this process is root.
func ownerIDs() (int, int, bool) {
	if os.Geteuid() != 0 {
		return 0, 0, false
	}
	out, err := exec.Command("id", "-u", "postgres").Output()
	if err != nil {
		return 0, 0, false
	}
	uid, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	out, err = exec.Command("id", "-g", "postgres").Output()
	if err != nil {
		return 0, 0, false
	}
	gid, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	return uid, gid, true
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode()&0o111 != 0 && !fi.IsDir()
}

func appendFile(p, text string) error {
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
