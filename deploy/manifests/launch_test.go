package manifests

import (
	"bufio"
	"bytes"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"testing"
)

// launch is one server process the deployment files start: a pod, a Compose service or a systemd
// unit's instance, as the platform would start it.
type launch struct {
	what   string            // which file and which pod, service or instance
	binary string            // "airline" or "search"
	args   []string          // the command line after the binary
	env    map[string]string // the environment the files give it, the image's included
	files  map[string][]byte // what the platform puts at absolute paths (keys, seller files)
	dirs   []string          // directories that exist (volumes)
}

// imageEnv is the environment the image's Dockerfile sets (ENV lines).
func imageEnv(t *testing.T) map[string]string {
	t.Helper()
	env := map[string]string{}
	var logical []string
	var cur strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(readFile(t, "image/Dockerfile")))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "#") {
			continue
		}
		if s, cont := strings.CutSuffix(line, "\\"); cont {
			cur.WriteString(s + " ")
			continue
		}
		cur.WriteString(line)
		logical = append(logical, cur.String())
		cur.Reset()
	}
	for _, l := range logical {
		if rest, ok := strings.CutPrefix(l, "ENV "); ok {
			for _, kv := range strings.Fields(rest) {
				k, v, _ := strings.Cut(kv, "=")
				env[k] = v
			}
		}
	}
	if len(env) == 0 {
		t.Fatal("image/Dockerfile sets no ENV")
	}
	return env
}

// merge is base with over's variables replacing its own.
func merge(base, over map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		out[k] = v
	}
	return out
}

// k8sLaunches are the airline pods of the StatefulSet and the search server's pod.
func k8sLaunches(t *testing.T, keys *testKeys) []launch {
	t.Helper()
	objects := k8sObjects(t)
	var out []launch
	ss := spec[statefulSetSpec](t, objects, statefulSet)
	for _, pod := range podNames("star", *ss.Replicas) {
		secret := keys.machine(pod, "star", pod+".star."+namespace+".svc.cluster.local")
		out = append(out, podLaunch(t, objects, statefulSet+" pod "+pod, ss.Template.Spec, airlineName, pod, map[string]map[string][]byte{pod + "-keys": secret}))
	}
	d := spec[deploymentSpec](t, objects, "Deployment/search")
	secret := keys.search("search." + namespace + ".svc.cluster.local")
	out = append(out, podLaunch(t, objects, "Deployment/search", d.Template.Spec, "search", "search-0", map[string]map[string][]byte{"search-keys": secret}))
	return out
}

// podLaunch is container name of the pod, its Secrets' files where its init container copies
// them (the keys volume) and its ConfigMaps' files where they are mounted.
func podLaunch(t *testing.T, objects map[string]object, what string, pod podSpec, name, podName string, secrets map[string]map[string][]byte) launch {
	t.Helper()
	c := pod.container(t, name)
	env := podEnv(t, c, podName, namespace)
	argv := podCommand(c, env)
	l := launch{what: what, binary: path.Base(argv[0]), args: argv[1:], files: map[string][]byte{}}
	l.env = merge(imageEnv(t), env)
	keysDir := ""
	for _, m := range c.VolumeMounts {
		var v volume // a claim template's volume is not among the pod's
		if i := slices.IndexFunc(pod.Volumes, func(v volume) bool { return v.Name == m.Name }); i >= 0 {
			v = pod.Volumes[i]
		}
		switch {
		case v.ConfigMap != nil:
			for k, data := range objects["ConfigMap/"+v.ConfigMap.Name].Data {
				l.files[m.MountPath+"/"+k] = []byte(data)
			}
		case v.EmptyDir != nil && v.EmptyDir.Medium == "Memory":
			keysDir = m.MountPath
		default:
			l.dirs = append(l.dirs, m.MountPath)
		}
	}
	// The init container copies the pod's own directory of the Secrets' volume into keysDir.
	secretsVolume := pod.volume(t, "secrets")
	add := func(secret string, items []keyToPath) {
		for _, it := range items {
			data, ok := secrets[secret][it.Key]
			if !ok {
				continue // another pod's Secret
			}
			dir, file := path.Split(it.Path)
			if dir == "" || dir == podName+"/" {
				l.files[keysDir+"/"+file] = data
			}
		}
	}
	if p := secretsVolume.Projected; p != nil {
		for _, src := range p.Sources {
			if src.Secret != nil {
				add(src.Secret.Name, src.Secret.Items)
			}
		}
	}
	if s := secretsVolume.Secret; s != nil {
		add(s.SecretName, s.Items)
	}
	if keysDir == "" || len(l.files) == 0 {
		t.Fatalf("%s: found no keys volume to fill", what)
	}
	return l
}

// composeLaunches are the Compose file's services, their bind mounts filled as make cluster
// fills var/cluster.
func composeLaunches(t *testing.T, keys *testKeys, sellerFiles map[string][]byte) []launch {
	t.Helper()
	c := loadCompose(t)
	var out []launch
	for _, name := range append(c.servers("airline"), c.servers("search")...) {
		s := c.Services[name]
		l := launch{what: composeFile + " service " + name, binary: path.Base(s.Command[0]), args: s.Command[1:],
			env: merge(imageEnv(t), s.env(t)), files: map[string][]byte{}}
		sources, _ := s.mounts()
		for target, source := range sources {
			switch {
			case strings.HasSuffix(source, "/keys/hosts/"+name):
				secret := keys.search(s.Hostname)
				if l.binary == "airline" {
					secret = keys.machine(name, "star", s.Hostname)
				}
				for file, data := range secret {
					l.files[target+"/"+file] = data
				}
			case strings.HasSuffix(source, "/data"):
				for file, data := range sellerFiles {
					l.files[target+"/"+file] = data
				}
			default:
				l.dirs = append(l.dirs, target)
			}
		}
		out = append(out, l)
	}
	return out
}

// systemdLaunches are the units with their example environment files, the airline's as
// instance m1, their files where the systemd README installs them.
func systemdLaunches(t *testing.T, keys *testKeys, sellerFiles map[string][]byte) []launch {
	t.Helper()
	var out []launch
	for _, tc := range []struct{ unit, instance, example string }{
		{"systemd/flightalliance-airline@.service", "m1", "systemd/m1.env.example"},
		{"systemd/flightalliance-search.service", "", "systemd/search.env.example"},
	} {
		u := parseUnit(t, tc.unit)
		spec := strings.NewReplacer("%i", tc.instance)
		env := map[string]string{}
		for _, e := range u["Service"]["Environment"] {
			k, v, _ := strings.Cut(spec.Replace(e), "=")
			env[k] = v
		}
		// EnvironmentFile= is read after Environment= and overrides it.
		sc := bufio.NewScanner(bytes.NewReader(readFile(t, tc.example)))
		for sc.Scan() {
			if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
				k, v, _ := strings.Cut(line, "=")
				env[k] = v
			}
		}
		argv := strings.Fields(spec.Replace(u.one(t, "Service", "ExecStart")))
		l := launch{what: fmt.Sprintf("%s with %s", tc.unit, tc.example), binary: path.Base(argv[0]), args: argv[1:], env: env,
			files: map[string][]byte{}, dirs: []string{"/var/lib/flightalliance/" + tc.instance}}
		secret := keys.search("search.example.net")
		if l.binary == "airline" {
			secret = keys.machine(tc.instance, "star", tc.instance+".example.net")
		}
		for file, data := range secret {
			l.files["/etc/flightalliance/keys/"+file] = data
		}
		for file, data := range sellerFiles {
			l.files["/etc/flightalliance/sellers/"+file] = data
		}
		out = append(out, l)
	}
	return out
}

// sellerFiles are the CSV files of the ConfigMap star-sellers, by file name.
func sellerFiles(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for k, v := range k8sObjects(t)["ConfigMap/star-sellers"].Data {
		files[k] = []byte(v)
	}
	if len(files) == 0 {
		t.Fatal("ConfigMap/star-sellers holds no files")
	}
	return files
}

func TestLaunchesResolveEveryReference(t *testing.T) {
	keys := newTestKeys(t)
	sellers := sellerFiles(t)
	all := append(append(k8sLaunches(t, keys), composeLaunches(t, keys, sellers)...), systemdLaunches(t, keys, sellers)...)
	if len(all) != 4+4+2 {
		t.Fatalf("%d launches, want 10 (4 pods, 4 services, 2 units)", len(all))
	}
	for _, l := range all {
		var names []string
		for k := range l.env {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if strings.Contains(l.env[k], "$(") || strings.Contains(l.env[k], "%i") {
				t.Errorf("%s: %s=%q refers to a variable nothing defines", l.what, k, l.env[k])
			}
		}
		for _, a := range l.args {
			if strings.Contains(a, "$(") || strings.Contains(a, "%i") {
				t.Errorf("%s: argument %q refers to a variable nothing defines", l.what, a)
			}
		}
		for _, p := range namedPaths(l) {
			if _, ok := l.files[p]; !ok && !slices.ContainsFunc(l.dirs, func(d string) bool { return p == d || strings.HasPrefix(p, d+"/") }) {
				t.Errorf("%s: names %s, which nothing mounted or copied provides", l.what, p)
			}
		}
	}
}

// namedPaths are the deployment's paths (under /etc, /run or /var/lib/flightalliance) that the
// launch's arguments and variables name: whole values, or parts of CODE=path and comma lists.
func namedPaths(l launch) []string {
	values := slices.Clone(l.args)
	for _, v := range l.env {
		values = append(values, v)
	}
	var paths []string
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			for _, p := range strings.Split(part, "=") {
				for _, prefix := range []string{"/etc/flightalliance/", "/run/flightalliance/", "/var/lib/flightalliance/"} {
					if strings.HasPrefix(p, prefix) {
						paths = append(paths, p)
					}
				}
			}
		}
	}
	sort.Strings(paths)
	return paths
}
