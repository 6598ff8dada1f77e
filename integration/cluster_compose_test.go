package integration

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/tests/framework/membership"
)

// The in-container addresses of deploy/compose's services (the same on every host: each
// container is a host of its own).
const (
	clusterAirlinePort = "8101" // the airline server's SOAP and /status (HTTPS)
	clusterProbePort   = "9090" // /livez and /readyz (plain HTTP, no client certificate)
)

// cluster is deploy/compose's alliance — machines m1 m2 m3 of alliance star and a search server,
// each a container of its own on a private network, secure as the file has it — started by a
// test under a Compose project of its own, so that it removes only what it made.
type cluster struct {
	t       *testing.T
	project string // the Compose project (and the prefix of its containers, network and volumes)
	file    string // deploy/compose/docker-compose.yml
	dir     string // FA_CLUSTER_DIR: keys/ and data/
	image   string // FA_IMAGE: the image services are created from now
	publish string // FA_SEARCH_PUBLISH: where this host reaches the search server
	base    string // https:// + publish
	data    map[string][]flight.Flight
	booked  []flight.Flight // the flights the booking clients share (a few seats each)

	mu       sync.Mutex
	machines map[string]*clusterMachine
	extra    []string // containers started outside Compose (a machine added later), by id
	watch    *membership.Watch
}

// clusterMachine is one airline server's container, as the membership watch follows it.
type clusterMachine struct {
	c    *cluster
	name string
	log  string // Docker's log of the container, copied by syncLogs

	mu sync.Mutex
	id string
	up bool // its process runs: not killed or stopped (paused still counts as running)
}

func (m *clusterMachine) running() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.up
}

func (m *clusterMachine) url() string { return "https://" + m.name + ":" + clusterAirlinePort }

// env is the environment Compose substitutes into the file.
func (c *cluster) env(image string) []string {
	return []string{"FA_IMAGE=" + image, "FA_CLUSTER_DIR=" + c.dir, "FA_SEARCH_PUBLISH=" + c.publish}
}

// compose runs docker-compose on the project with the image now in use.
func (c *cluster) compose(args ...string) string {
	c.t.Helper()
	return c.composeWith(c.image, args...)
}

func (c *cluster) composeWith(image string, args ...string) string {
	c.t.Helper()
	out, err := dockerOut(context.Background(), c.env(image), append([]string{"compose", "-f", c.file, "-p", c.project}, args...)...)
	if err != nil {
		c.t.Fatal(err)
	}
	return out
}

// containerOf is the id of a Compose service's container.
func (c *cluster) containerOf(service string) string {
	c.t.Helper()
	return c.containerOfWith(c.image, service)
}

func (c *cluster) containerOfWith(image, service string) string {
	c.t.Helper()
	id := c.composeWith(image, "--profile", "spare", "ps", "-q", service)
	if id == "" {
		c.t.Fatalf("Compose has no container for %s", service)
	}
	return id
}

// locate records where this host reaches a container now (see containerHosts).
func (c *cluster) locate(host, id string) {
	c.t.Helper()
	ip := docker(c.t, "inspect", "-f", "{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}", id)
	ip, _, _ = strings.Cut(ip, " ")
	if ip == "" {
		c.t.Fatalf("container %s (%s) has no address", host, id)
	}
	containerHosts.Store(host, ip)
}

// network is the Compose project's network.
func (c *cluster) network() string { return c.project + "_default" }

// up starts the services, records their containers and has the watch follow the machines.
func (c *cluster) up() {
	c.t.Helper()
	c.compose("up", "-d", "--no-color")
	for _, name := range []string{"m1", "m2", "m3"} {
		m := &clusterMachine{c: c, name: name, log: filepath.Join(c.t.TempDir(), name+".log")}
		c.machines[name] = m
		c.started(m, c.containerOf(name), false)
	}
	c.locate("search", c.containerOf("search"))
}

// started records that m's container (id) runs, first or again.
func (c *cluster) started(m *clusterMachine, id string, restart bool) {
	c.t.Helper()
	c.locate(m.name, id)
	m.mu.Lock()
	m.id, m.up = id, true
	m.mu.Unlock()
	c.watch.Started(m.name, m.url(), m.log, m.running, restart)
}

// syncLogs copies every machine's Docker log to its file, for the membership watch to read.
func (c *cluster) syncLogs() {
	c.mu.Lock()
	machines := make([]*clusterMachine, 0, len(c.machines))
	for _, m := range c.machines {
		machines = append(machines, m)
	}
	c.mu.Unlock()
	for _, m := range machines {
		m.mu.Lock()
		id := m.id
		m.mu.Unlock()
		if logs, err := dockerLogs(id); err == nil {
			_ = os.WriteFile(m.log, logs, 0o644)
		}
	}
}

func dockerLogs(id string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "docker", "logs", id).CombinedOutput() // the servers log to stderr
	if err != nil {
		return nil, fmt.Errorf("docker logs %s: %v", id, err)
	}
	return out, nil
}

// down removes everything the test made: its containers (Compose's and the others, by id), its
// network and its volumes.
func (c *cluster) down() {
	if c.t.Failed() {
		c.syncLogs()
		for _, name := range []string{"m1", "m2", "m3", "m4"} {
			if m := c.machines[name]; m != nil {
				b, _ := os.ReadFile(m.log)
				c.t.Logf("--- last lines of %s's log:\n%s", name, lastLines(b, 60))
			}
		}
	}
	for _, id := range c.extra {
		_, _ = dockerOut(context.Background(), nil, "rm", "-f", "-v", id)
	}
	if _, err := dockerOut(context.Background(), c.env(c.image), "compose", "-f", c.file, "-p", c.project,
		"down", "-v", "--remove-orphans", "--timeout", "5"); err != nil {
		c.t.Errorf("removing the cluster: %v", err)
	}
	for _, h := range []string{"m1", "m2", "m3", "m4", "search"} {
		containerHosts.Delete(h)
	}
}

// lastLines is the end of a log: its last n lines.
func lastLines(b []byte, n int) []byte {
	lines := bytes.SplitAfter(b, []byte("\n"))
	return bytes.Join(lines[max(0, len(lines)-n):], nil)
}
