// Package pgtest owns throwaway PostgreSQL clusters for tests and benchmarks: Debian's postgresql
// binaries (/usr/lib/postgresql/*/bin), a fresh data directory under the test's temporary folder,
// listening on loopback only with trust authentication, stopped (and its folder removed) when the
// test ends. Running as root, the server runs as the postgres account (PostgreSQL refuses root).
//
// A missing PostgreSQL is an error, never a skip: .ci/run installs Debian's postgresql package.
package pgtest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

// Cluster is a running throwaway PostgreSQL server.
type Cluster struct {
	// URL reaches the cluster's "postgres" database as its superuser over loopback TCP.
	URL  string
	dir  string
	cmd  *exec.Cmd
	done chan error
}

// Options tune a cluster.
type Options struct {
	// Durable keeps fsync and synchronous_commit on (for commit latency figures); tests leave it
	// off, which keeps every guarantee but survival of an OS crash.
	Durable bool
}

// Bin finds the directory of Debian's PostgreSQL server binaries (the newest installed).
func Bin() (string, error) {
	ms, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(ms) == 0 {
		if p, err := exec.LookPath("initdb"); err == nil {
			return filepath.Dir(p), nil
		}
		return "", errors.New("pgtest: PostgreSQL not installed (apt-get install postgresql; .ci/run does)")
	}
	sort.Slice(ms, func(i, j int) bool { return version(ms[i]) < version(ms[j]) })
	return filepath.Dir(ms[len(ms)-1]), nil
}

func version(initdb string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(initdb))))
	return v
}

// Start makes a cluster in a new folder under parent and starts it; Stop ends it.
func Start(ctx context.Context, parent string, o Options) (*Cluster, error) {
	bin, err := Bin()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(parent, "pg")
	if err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	data := filepath.Join(dir, "data")
	if err := os.Mkdir(data, 0o700); err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		if cred, err = postgresAccount(); err != nil {
			return nil, err
		}
		for _, p := range []string{dir, data} {
			if err := os.Chown(p, int(cred.Uid), int(cred.Gid)); err != nil {
				return nil, fmt.Errorf("pgtest: %w", err)
			}
		}
		// The server must reach its folder: every parent must be passable by the postgres account.
		for p := filepath.Dir(dir); p != "/" && p != "."; p = filepath.Dir(p) {
			if fi, err := os.Stat(p); err == nil && fi.Mode().Perm()&0o001 == 0 {
				_ = os.Chmod(p, fi.Mode().Perm()|0o011)
			}
		}
	}
	initdb := exec.CommandContext(ctx, filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("pgtest: initdb: %w: %s", err, out)
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	args := []string{"-D", data, "-p", strconv.Itoa(port), "-h", "127.0.0.1", "-k", dir,
		"-c", "max_connections=300", "-c", "shared_buffers=32MB", "-c", "log_min_messages=warning"}
	if !o.Durable {
		args = append(args, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	}
	cmd := exec.Command(filepath.Join(bin, "postgres"), args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Setpgid: true}
	logf, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	defer logf.Close()
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("pgtest: postgres: %w", err)
	}
	c := &Cluster{dir: dir, cmd: cmd, done: make(chan error, 1),
		URL: fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)}
	go func() { c.done <- cmd.Wait() }()
	if err := c.wait(ctx); err != nil {
		_ = c.Stop()
		log, _ := os.ReadFile(filepath.Join(dir, "server.log"))
		return nil, fmt.Errorf("%w: %s", err, log)
	}
	return c, nil
}

// wait polls until the server accepts connections (at most 60 s).
func (c *Cluster) wait(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	db, err := sql.Open("pgx", c.URL)
	if err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	defer db.Close()
	for {
		if err := db.PingContext(ctx); err == nil {
			return nil
		}
		select {
		case err := <-c.done:
			c.done <- err
			return fmt.Errorf("pgtest: postgres exited: %v", err)
		case <-ctx.Done():
			return fmt.Errorf("pgtest: postgres did not start: %w", ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Schema makes a new empty schema and returns a URL whose connections use it (search_path), so
// tests sharing one cluster never see each other's tables.
func (c *Cluster) Schema(ctx context.Context) (string, error) { return SchemaOf(ctx, c.URL) }

// schemas numbers the schemas this process made.
var schemas atomic.Int64

// SchemaOf makes a new empty schema in the database at base (a URL) and returns base with
// search_path set to it.
func SchemaOf(ctx context.Context, base string) (string, error) {
	name := fmt.Sprintf("t%d_%d", os.Getpid(), schemas.Add(1))
	db, err := sql.Open("pgx", base)
	if err != nil {
		return "", fmt.Errorf("pgtest: %w", err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "CREATE SCHEMA "+name); err != nil {
		return "", fmt.Errorf("pgtest: create schema: %w", err)
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", fmt.Errorf("pgtest: %w", err)
	}
	q := u.Query()
	q.Set("search_path", name)
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// Stop ends the server (fast shutdown) and removes its folder.
func (c *Cluster) Stop() error {
	if c.cmd.Process != nil {
		_ = c.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-c.done:
		case <-time.After(20 * time.Second):
			_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
			<-c.done
		}
	}
	return os.RemoveAll(c.dir)
}

func postgresAccount() (*syscall.Credential, error) {
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("pgtest: running as root needs the postgres account (Debian's postgresql package makes it): %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pgtest: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
