package manifests

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// The parts of Kubernetes objects the deployment relies on, by their JSON names.

type object struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name   string            `json:"name"`
		Labels map[string]string `json:"labels"`
	} `json:"metadata"`
	Spec json.RawMessage   `json:"spec"`
	Data map[string]string `json:"data"` // a ConfigMap's
}

type statefulSetSpec struct {
	ServiceName          string        `json:"serviceName"`
	Replicas             *int          `json:"replicas"`
	PodManagementPolicy  string        `json:"podManagementPolicy"`
	Selector             labelSelector `json:"selector"`
	Template             podTemplate   `json:"template"`
	VolumeClaimTemplates []struct {
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
	} `json:"volumeClaimTemplates"`
}

type deploymentSpec struct {
	Replicas *int          `json:"replicas"`
	Selector labelSelector `json:"selector"`
	Template podTemplate   `json:"template"`
}

type serviceSpec struct {
	ClusterIP                string            `json:"clusterIP"`
	PublishNotReadyAddresses bool              `json:"publishNotReadyAddresses"`
	Selector                 map[string]string `json:"selector"`
	Ports                    []struct {
		Name       string          `json:"name"`
		Port       int             `json:"port"`
		TargetPort json.RawMessage `json:"targetPort"`
	} `json:"ports"`
}

type pdbSpec struct {
	MaxUnavailable json.RawMessage `json:"maxUnavailable"`
	Selector       labelSelector   `json:"selector"`
}

type labelSelector struct {
	MatchLabels map[string]string `json:"matchLabels"`
}

type podTemplate struct {
	Metadata struct {
		Labels map[string]string `json:"labels"`
	} `json:"metadata"`
	Spec podSpec `json:"spec"`
}

type podSpec struct {
	TerminationGracePeriodSeconds *int `json:"terminationGracePeriodSeconds"`
	SecurityContext               struct {
		RunAsNonRoot *bool `json:"runAsNonRoot"`
		RunAsUser    *int  `json:"runAsUser"`
		FSGroup      *int  `json:"fsGroup"`
	} `json:"securityContext"`
	InitContainers []container `json:"initContainers"`
	Containers     []container `json:"containers"`
	Volumes        []volume    `json:"volumes"`
}

type container struct {
	Name    string   `json:"name"`
	Image   string   `json:"image"`
	Command []string `json:"command"`
	Args    []string `json:"args"`
	Env     []envVar `json:"env"`
	Ports   []struct {
		Name          string `json:"name"`
		ContainerPort int    `json:"containerPort"`
	} `json:"ports"`
	StartupProbe   *probe `json:"startupProbe"`
	LivenessProbe  *probe `json:"livenessProbe"`
	ReadinessProbe *probe `json:"readinessProbe"`
	VolumeMounts   []struct {
		Name      string `json:"name"`
		MountPath string `json:"mountPath"`
		ReadOnly  bool   `json:"readOnly"`
	} `json:"volumeMounts"`
}

type envVar struct {
	Name      string `json:"name"`
	Value     string `json:"value"`
	ValueFrom *struct {
		FieldRef *struct {
			FieldPath string `json:"fieldPath"`
		} `json:"fieldRef"`
	} `json:"valueFrom"`
}

type probe struct {
	HTTPGet *struct {
		Path string          `json:"path"`
		Port json.RawMessage `json:"port"`
	} `json:"httpGet"`
}

type keyToPath struct {
	Key  string `json:"key"`
	Path string `json:"path"`
}

type volume struct {
	Name      string `json:"name"`
	Projected *struct {
		Sources []struct {
			Secret *struct {
				Name     string      `json:"name"`
				Optional bool        `json:"optional"`
				Items    []keyToPath `json:"items"`
			} `json:"secret"`
		} `json:"sources"`
	} `json:"projected"`
	Secret *struct {
		SecretName string      `json:"secretName"`
		Items      []keyToPath `json:"items"`
	} `json:"secret"`
	ConfigMap *struct {
		Name string `json:"name"`
	} `json:"configMap"`
	EmptyDir *struct {
		Medium string `json:"medium"`
	} `json:"emptyDir"`
}

// k8sObjects are the Kubernetes objects under deploy/k8s, by kind and name ("StatefulSet/star").
func k8sObjects(t *testing.T) map[string]object {
	t.Helper()
	objects := map[string]object{}
	for _, doc := range yamlDocs(t) {
		if !strings.HasPrefix(doc.file, "k8s/") {
			continue
		}
		var o object
		decode(t, doc, &o)
		key := o.Kind + "/" + o.Metadata.Name
		if _, dup := objects[key]; dup {
			t.Fatalf("%s: %s defined twice", doc, key)
		}
		objects[key] = o
	}
	return objects
}

// spec decodes the spec of the object key, failing the test when there is none.
func spec[T any](t *testing.T, objects map[string]object, key string) T {
	t.Helper()
	o, ok := objects[key]
	if !ok {
		t.Fatalf("deploy/k8s has no %s", key)
	}
	var s T
	if err := json.Unmarshal(o.Spec, &s); err != nil {
		t.Fatalf("%s: spec: %v", key, err)
	}
	return s
}

func (p podSpec) container(t *testing.T, name string) container {
	t.Helper()
	for _, c := range p.Containers {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no container %q", name)
	return container{}
}

func (p podSpec) volume(t *testing.T, name string) volume {
	t.Helper()
	for _, v := range p.Volumes {
		if v.Name == name {
			return v
		}
	}
	t.Fatalf("no volume %q", name)
	return volume{}
}

// port is a container's port given by number or by name.
func (c container) port(t *testing.T, ref json.RawMessage) int {
	t.Helper()
	var n int
	if json.Unmarshal(ref, &n) == nil {
		return n
	}
	var name string
	if err := json.Unmarshal(ref, &name); err != nil {
		t.Fatalf("container %s: port %s is neither a number nor a name", c.Name, ref)
	}
	for _, p := range c.Ports {
		if p.Name == name {
			return p.ContainerPort
		}
	}
	t.Fatalf("container %s has no port named %q", c.Name, name)
	return 0
}

// mountOf is the volume mounted at the longest mount path that holds path, and that mount path.
func (c container) mountOf(path string) (volumeName, mountPath string) {
	for _, m := range c.VolumeMounts {
		if (path == m.MountPath || strings.HasPrefix(path, m.MountPath+"/")) && len(m.MountPath) > len(mountPath) {
			volumeName, mountPath = m.Name, m.MountPath
		}
	}
	return volumeName, mountPath
}

// listenPort is the port of a host:port flag value.
func listenPort(t *testing.T, flag, hostPort string) int {
	t.Helper()
	i := strings.LastIndex(hostPort, ":")
	n, err := strconv.Atoi(hostPort[i+1:])
	if i < 0 || err != nil {
		t.Fatalf("%s: %q is not host:port", flag, hostPort)
	}
	return n
}

// selects reports whether selector's labels are all among labels.
func selects(selector, labels map[string]string) bool {
	if len(selector) == 0 {
		return false
	}
	for k, v := range selector {
		if labels[k] != v {
			return false
		}
	}
	return true
}
