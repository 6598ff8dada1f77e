package manifests

import (
	"encoding/csv"
	"fmt"
	"net/url"
	"path"
	"strconv"
	"strings"
	"testing"
)

// The alliance's StatefulSet, its Service and the names the rest of the files use for them.
const (
	statefulSet = "StatefulSet/star"
	airlineName = "airline" // the StatefulSet's container
	namespace   = "default" // what the pods' $(POD_NAMESPACE) is in these tests
)

// podNames are the StatefulSet's pods: its name and an ordinal.
func podNames(name string, replicas int) []string {
	var pods []string
	for i := range replicas {
		pods = append(pods, name+"-"+strconv.Itoa(i))
	}
	return pods
}

func TestStatefulSetBootstrapsTogether(t *testing.T) {
	objects := k8sObjects(t)
	ss := spec[statefulSetSpec](t, objects, statefulSet)
	if ss.Replicas == nil || *ss.Replicas < 3 {
		t.Fatalf("%s: replicas %v, want 3 or more (a quorum that survives a machine)", statefulSet, ss.Replicas)
	}
	if ss.PodManagementPolicy != "Parallel" {
		t.Errorf("%s: podManagementPolicy %q: a machine is ready only with a quorum, so OrderedReady would wait for ever on the first pod; want Parallel", statefulSet, ss.PodManagementPolicy)
	}
	if !selects(ss.Selector.MatchLabels, ss.Template.Metadata.Labels) {
		t.Errorf("%s: selector %v does not select its own pods %v", statefulSet, ss.Selector.MatchLabels, ss.Template.Metadata.Labels)
	}

	svc := spec[serviceSpec](t, objects, "Service/"+ss.ServiceName)
	if svc.ClusterIP != "None" {
		t.Errorf("Service/%s: clusterIP %q; the StatefulSet's serviceName must be headless (None)", ss.ServiceName, svc.ClusterIP)
	}
	if !svc.PublishNotReadyAddresses {
		t.Errorf("Service/%s: publishNotReadyAddresses must be true: peers find each other before any is ready", ss.ServiceName)
	}
	if !selects(svc.Selector, ss.Template.Metadata.Labels) {
		t.Errorf("Service/%s: selector %v does not select the StatefulSet's pods", ss.ServiceName, svc.Selector)
	}

	// Every pod of the StatefulSet is a bootstrap peer, named as its pod, at its DNS name.
	c := ss.Template.Spec.container(t, airlineName)
	env := podEnv(t, c, "star-0", namespace)
	var want []string
	for _, pod := range podNames("star", *ss.Replicas) {
		want = append(want, fmt.Sprintf("%s=https://%s.%s.%s.svc.cluster.local:2380", pod, pod, ss.ServiceName, namespace))
	}
	if got := env["FA_AIRLINE_PEERS"]; got != strings.Join(want, ",") {
		t.Errorf("FA_AIRLINE_PEERS = %q, want %q", got, strings.Join(want, ","))
	}
	if env["FA_AIRLINE_NAME"] != "star-0" {
		t.Errorf("FA_AIRLINE_NAME = %q in pod star-0, want the pod's name", env["FA_AIRLINE_NAME"])
	}
	peerPort := listenPort(t, "FA_AIRLINE_PEER_LISTEN", env["FA_AIRLINE_PEER_LISTEN"])
	if adv := env["FA_AIRLINE_PEER_ADVERTISE"]; adv != fmt.Sprintf("star-0.%s.%s.svc.cluster.local:%d", ss.ServiceName, namespace, peerPort) {
		t.Errorf("FA_AIRLINE_PEER_ADVERTISE = %q: not the pod's DNS name at --peer-listen's port", adv)
	}
}

func TestStatefulSetProbesAndLeave(t *testing.T) {
	objects := k8sObjects(t)
	ss := spec[statefulSetSpec](t, objects, statefulSet)
	c := ss.Template.Spec.container(t, airlineName)
	checkProbes(t, statefulSet, c, podEnv(t, c, "star-0", namespace)["FA_AIRLINE_PROBE_LISTEN"])
	if c.StartupProbe == nil || c.StartupProbe.HTTPGet == nil || c.StartupProbe.HTTPGet.Path != "/livez" {
		t.Errorf("%s: the first start waits for the peers: want a startupProbe on /livez", statefulSet)
	}
	// A leave hands the machine's sellers over: at least a few rounds of calls (--call-timeout 2s).
	if g := ss.Template.Spec.TerminationGracePeriodSeconds; g == nil || *g < 30 {
		t.Errorf("%s: terminationGracePeriodSeconds %v, want 30 or more for a clean leave", statefulSet, g)
	}
	pdb := spec[pdbSpec](t, objects, "PodDisruptionBudget/star")
	if string(pdb.MaxUnavailable) != "1" {
		t.Errorf("PodDisruptionBudget/star: maxUnavailable %s, want 1", pdb.MaxUnavailable)
	}
	if !selects(pdb.Selector.MatchLabels, ss.Template.Metadata.Labels) {
		t.Errorf("PodDisruptionBudget/star: selector %v does not select the StatefulSet's pods", pdb.Selector.MatchLabels)
	}
}

// checkProbes checks that c's liveness and readiness probes ask /livez and /readyz on the port
// its probe listener (probeListen, host:port) serves.
func checkProbes(t *testing.T, what string, c container, probeListen string) {
	t.Helper()
	if probeListen == "" {
		t.Fatalf("%s: container %s sets no probe listener (FA_*_PROBE_LISTEN)", what, c.Name)
	}
	port := listenPort(t, "probe listener", probeListen)
	for _, p := range []struct {
		name  string
		probe *probe
		path  string
	}{{"livenessProbe", c.LivenessProbe, "/livez"}, {"readinessProbe", c.ReadinessProbe, "/readyz"}} {
		switch {
		case p.probe == nil || p.probe.HTTPGet == nil:
			t.Errorf("%s: container %s has no httpGet %s", what, c.Name, p.name)
		case p.probe.HTTPGet.Path != p.path:
			t.Errorf("%s: %s asks %s, want %s", what, p.name, p.probe.HTTPGet.Path, p.path)
		case c.port(t, p.probe.HTTPGet.Port) != port:
			t.Errorf("%s: %s asks port %s, but the probe listener is %s", what, p.name, p.probe.HTTPGet.Port, probeListen)
		}
	}
}

func TestStatefulSetVolumes(t *testing.T) {
	objects := k8sObjects(t)
	ss := spec[statefulSetSpec](t, objects, statefulSet)
	pod := ss.Template.Spec
	c := pod.container(t, airlineName)
	env := podEnv(t, c, "star-1", namespace)

	// The etcd data lives on the pod's claim.
	if v, _ := c.mountOf(env["FA_AIRLINE_DATA_DIR"]); len(ss.VolumeClaimTemplates) != 1 || v != ss.VolumeClaimTemplates[0].Metadata.Name {
		t.Errorf("FA_AIRLINE_DATA_DIR %s is not on the StatefulSet's volume claim template (mounted volume %q)", env["FA_AIRLINE_DATA_DIR"], v)
	}

	// Every seller file is a key of the ConfigMap mounted there, a CSV of that seller's flights.
	sellers := strings.Split(env["FA_AIRLINE_SELLER"], ",")
	if len(sellers) == 0 || sellers[0] == "" {
		t.Fatal("FA_AIRLINE_SELLER is empty")
	}
	for _, s := range sellers {
		code, file, _ := strings.Cut(s, "=")
		v, mount := c.mountOf(file)
		if v == "" || pod.volume(t, v).ConfigMap == nil {
			t.Errorf("seller %s: %s is not in a ConfigMap's volume", code, file)
			continue
		}
		key := strings.TrimPrefix(file, mount+"/")
		cm := objects["ConfigMap/"+pod.volume(t, v).ConfigMap.Name]
		checkSellerCSV(t, "ConfigMap/"+cm.Metadata.Name+" "+key, code, cm.Data[key])
	}

	// The keys: files of a memory emptyDir that the init container fills from the projected
	// Secrets, each pod's under its name.
	files := map[string]string{}
	for _, name := range []string{"FA_AIRLINE_TOKEN_FILE", "FA_AIRLINE_TLS_CERT", "FA_AIRLINE_TLS_KEY", "FA_AIRLINE_TLS_CA"} {
		v, mount := c.mountOf(env[name])
		if v == "" || pod.volume(t, v).EmptyDir == nil || pod.volume(t, v).EmptyDir.Medium != "Memory" {
			t.Errorf("%s = %s: not in a memory emptyDir", name, env[name])
		}
		files[name] = strings.TrimPrefix(env[name], mount+"/")
	}
	projected := pod.volume(t, "secrets").Projected
	if projected == nil {
		t.Fatal("volume secrets: want a projected volume of the pods' Secrets")
	}
	for _, podName := range podNames("star", *ss.Replicas) {
		var found bool
		for _, src := range projected.Sources {
			if src.Secret == nil || src.Secret.Name != podName+"-keys" {
				continue
			}
			found = true
			paths := map[string]bool{}
			for _, it := range src.Secret.Items {
				if dir, _ := path.Split(it.Path); dir != podName+"/" {
					t.Errorf("Secret %s: item %s lands in %s, want the pod's directory %s/", src.Secret.Name, it.Key, it.Path, podName)
				}
				paths[path.Base(it.Path)] = true
			}
			for name, f := range files {
				if !paths[f] {
					t.Errorf("Secret %s projects no %s (%s)", src.Secret.Name, f, name)
				}
			}
		}
		if !found {
			t.Errorf("pod %s: no Secret %s-keys among the projected volume's sources", podName, podName)
		}
	}
	if len(pod.InitContainers) != 1 || !strings.Contains(strings.Join(pod.InitContainers[0].Command, " "), "/secrets/$(POD_NAME)/") {
		t.Errorf("want one init container copying /secrets/$(POD_NAME)/ into the keys volume")
	}
}

// checkSellerCSV checks that data is a flight file (docs/api.md, "Flight data files") of seller code only.
func checkSellerCSV(t *testing.T, what, code, data string) {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(data)).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Errorf("%s: not a CSV with flights (%v)", what, err)
		return
	}
	if got := strings.Join(rows[0], ","); got != "flight,seller,src,dst,departure,arrival,price,seats" {
		t.Errorf("%s: header %q", what, got)
	}
	for i, r := range rows[1:] {
		if len(r) < 2 || r[1] != code {
			t.Errorf("%s: line %d is not %s's: %v", what, i+2, code, r)
			return
		}
	}
}

func TestSearchDeployment(t *testing.T) {
	objects := k8sObjects(t)
	d := spec[deploymentSpec](t, objects, "Deployment/search")
	c := d.Template.Spec.container(t, "search")
	env := podEnv(t, c, "search-0", namespace)
	checkProbes(t, "Deployment/search", c, env["FA_SEARCH_PROBE_LISTEN"])
	if d.Replicas == nil || *d.Replicas != 1 {
		t.Errorf("Deployment/search: replicas %v: a delegate registers with one search server, want 1", d.Replicas)
	}

	// The machines register with the Service in front of it, at the port it listens on.
	svc := spec[serviceSpec](t, objects, "Service/search")
	if !selects(svc.Selector, d.Template.Metadata.Labels) {
		t.Errorf("Service/search: selector %v does not select the Deployment's pods", svc.Selector)
	}
	star := spec[statefulSetSpec](t, objects, statefulSet)
	u, err := url.Parse(podEnv(t, star.Template.Spec.container(t, airlineName), "star-0", namespace)["FA_AIRLINE_SEARCH"])
	if err != nil || u.Scheme != "https" || u.Hostname() != "search."+namespace+".svc.cluster.local" {
		t.Fatalf("FA_AIRLINE_SEARCH %v: want https://search.%s.svc.cluster.local:PORT", u, namespace)
	}
	listen := listenPort(t, "FA_SEARCH_LISTEN", env["FA_SEARCH_LISTEN"])
	var served bool
	for _, p := range svc.Ports {
		if strconv.Itoa(p.Port) == u.Port() && c.port(t, p.TargetPort) == listen {
			served = true
		}
	}
	if !served {
		t.Errorf("Service/search has no port %s leading to the search server's %s", u.Port(), env["FA_SEARCH_LISTEN"])
	}
}

func TestPodsRunLockedDown(t *testing.T) {
	objects := k8sObjects(t)
	for key, pod := range map[string]podSpec{
		statefulSet:         spec[statefulSetSpec](t, objects, statefulSet).Template.Spec,
		"Deployment/search": spec[deploymentSpec](t, objects, "Deployment/search").Template.Spec,
	} {
		sc := pod.SecurityContext
		if sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || sc.RunAsUser == nil || *sc.RunAsUser != 65532 || sc.FSGroup == nil || *sc.FSGroup != 65532 {
			t.Errorf("%s: want runAsNonRoot, runAsUser and fsGroup 65532 (the image's user)", key)
		}
	}
}
