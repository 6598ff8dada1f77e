package integration

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"time"

	"flightalliance/tests/framework"
	"flightalliance/tests/framework/membership"
)

// The faults the cluster suite injects into one machine's container, and what undoes each. Each
// tells the membership watch first what the machine may now go through.

func (c *cluster) machine(name string) *clusterMachine {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.machines[name]
	if m == nil {
		c.t.Fatalf("no machine %s in the cluster", name)
	}
	return m
}

func (m *clusterMachine) container() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.id
}

func (m *clusterMachine) setUp(up bool) {
	m.mu.Lock()
	m.up = up
	m.mu.Unlock()
}

// kill is docker kill: SIGKILL to the container's process.
func (c *cluster) kill(name string) {
	c.t.Logf("%s: docker kill %s", clock(time.Now()), name)
	m := c.machine(name)
	c.watch.Set(name, membership.Faulted)
	m.setUp(false)
	docker(c.t, "kill", "--signal", "KILL", m.container())
}

// start starts a stopped or killed machine's container again, on its volume.
func (c *cluster) start(name string) {
	c.t.Logf("%s: docker start %s", clock(time.Now()), name)
	m := c.machine(name)
	docker(c.t, "start", m.container())
	c.started(m, m.container(), true)
}

// pause freezes the container's processes (the cgroup freezer), as a stalled VM would be.
func (c *cluster) pause(name string) {
	c.t.Logf("%s: docker pause %s", clock(time.Now()), name)
	c.watch.Set(name, membership.Paused)
	docker(c.t, "pause", c.machine(name).container())
}

func (c *cluster) unpause(name string) {
	c.t.Logf("%s: docker unpause %s", clock(time.Now()), name)
	docker(c.t, "unpause", c.machine(name).container())
	c.watch.Set(name, membership.Up)
}

// disconnect takes the container off the network: the others' packets to it vanish (its address
// no longer answers on the bridge), and it can reach no one.
func (c *cluster) disconnect(name string) {
	c.t.Logf("%s: docker network disconnect %s", clock(time.Now()), name)
	c.watch.Set(name, membership.Faulted)
	docker(c.t, "network", "disconnect", c.network(), c.machine(name).container())
}

// reconnect puts it back under its service name, which the others resolve.
func (c *cluster) reconnect(name string) {
	c.t.Logf("%s: docker network connect %s", clock(time.Now()), name)
	m := c.machine(name)
	docker(c.t, "network", "connect", "--alias", name, c.network(), m.container())
	c.locate(name, m.container())
	// The heal is done when the machine answers over the network again (its /livez), not when
	// docker returns: a peer's probe begun before that fails and may remove it, as it may any
	// machine still cut off (the watch judges a removal by when its last probe began against
	// this moment).
	took := framework.Eventually(c.t, 30*time.Second, name+" answers /livez over the network again", func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+name+":"+clusterProbePort+"/livez", nil)
		if err != nil {
			return err
		}
		resp, err := httpClient.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("/livez: %s", resp.Status)
		}
		return nil
	})
	c.t.Logf("%s: %s answers again, %v after docker network connect", clock(time.Now()), name, took.Round(10*time.Millisecond))
	c.watch.Set(name, membership.Up)
}

// readyz is a machine's GET /readyz on its probe port: nil once it answers 200.
func (c *cluster) readyz(ctx context.Context, name string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+name+":"+clusterProbePort+"/readyz", nil)
	if err != nil {
		return err
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s /readyz: %s", name, resp.Status)
	}
	return nil
}

// waitBack waits until the machines answer ready and, as the others see it, are members of the
// alliance's view with a quorum; it returns how long that took.
func (c *cluster) waitBack(within time.Duration, names ...string) time.Duration {
	c.t.Helper()
	return framework.Eventually(c.t, within, fmt.Sprintf("%v ready and in the view", names), func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		for _, n := range names {
			if err := c.readyz(ctx, n); err != nil {
				return err
			}
			var st membership.Status
			if err := getJSON(ctx, c.machine(n).url()+"/status", &st); err != nil {
				return err
			}
			if !st.Quorum() || !st.InView(n) {
				return fmt.Errorf("%s: quorum %v, in its view %v", n, st.Quorum(), st.InView(n))
			}
		}
		return nil
	})
}

// upgrade recreates a machine's container from image, as `docker-compose up -d` does when the
// image changes: the old container gets SIGTERM (the machine hands its sellers over and leaves),
// the new one starts on the same volume and rejoins. It returns once the machine is back.
func (c *cluster) upgrade(name, image string) time.Duration {
	c.t.Helper()
	m := c.machine(name)
	c.watch.Set(name, membership.Faulted)
	m.setUp(false)
	c.composeWith(image, "up", "-d", "--no-deps", "--no-color", name)
	c.started(m, c.containerOfWith(image, name), true)
	back := c.waitBack(90*time.Second, name)
	c.mu.Lock()
	c.image = image
	c.mu.Unlock()
	return back
}

// addMachine starts the Compose file's spare machine, on a new host of its own: it joins the
// running alliance. It returns once it is ready and in the view.
func (c *cluster) addMachine(name string) time.Duration {
	c.t.Helper()
	c.compose("--profile", "spare", "up", "-d", "--no-deps", "--no-color", name)
	m := &clusterMachine{c: c, name: name, log: filepath.Join(c.t.TempDir(), name+".log")}
	c.mu.Lock()
	c.machines[name] = m
	c.mu.Unlock()
	c.started(m, c.containerOfWith(c.image, name), false)
	return c.waitBack(2*time.Minute, name)
}
