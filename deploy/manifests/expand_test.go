package manifests

import (
	"strings"
	"testing"
)

// expand replaces $(VAR) in s as Kubernetes does in a container's env values, command and args:
// a defined variable by its value, an undefined one left as written, $$ by $.
func expand(s string, vars map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '$':
			b.WriteByte('$')
			i++
		case '(':
			end := strings.IndexByte(s[i+2:], ')')
			if end < 0 {
				b.WriteString("$(")
				i++
				continue
			}
			name := s[i+2 : i+2+end]
			if v, ok := vars[name]; ok {
				b.WriteString(v)
			} else {
				b.WriteString("$(" + name + ")")
			}
			i += 2 + end
		default:
			b.WriteByte('$')
		}
	}
	return b.String()
}

// podEnv is the environment Kubernetes gives container c of the pod named pod in namespace ns:
// each variable's value expanded from the variables listed before it, the downward API's
// metadata.name and metadata.namespace resolved. It fails the test on any other valueFrom.
func podEnv(t *testing.T, c container, pod, ns string) map[string]string {
	t.Helper()
	env := map[string]string{}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom == nil:
			env[e.Name] = expand(e.Value, env)
		case e.ValueFrom.FieldRef != nil && e.ValueFrom.FieldRef.FieldPath == "metadata.name":
			env[e.Name] = pod
		case e.ValueFrom.FieldRef != nil && e.ValueFrom.FieldRef.FieldPath == "metadata.namespace":
			env[e.Name] = ns
		default:
			t.Fatalf("container %s: %s comes from a source this test does not resolve", c.Name, e.Name)
		}
	}
	return env
}

// podCommand is container c's command line, expanded with env.
func podCommand(c container, env map[string]string) []string {
	var argv []string
	for _, a := range append(append([]string{}, c.Command...), c.Args...) {
		argv = append(argv, expand(a, env))
	}
	return argv
}

func TestExpandAsKubernetes(t *testing.T) {
	vars := map[string]string{"POD_NAME": "star-1", "EMPTY": ""}
	for in, want := range map[string]string{
		"$(POD_NAME).star":       "star-1.star",
		"a$(EMPTY)b":             "ab",
		"$(UNKNOWN)/x":           "$(UNKNOWN)/x",
		"$$(POD_NAME)":           "$(POD_NAME)",
		"cost $5":                "cost $5",
		"open $(POD_NAME":        "open $(POD_NAME",
		"end$":                   "end$",
		"$(POD_NAME)$(POD_NAME)": "star-1star-1",
	} {
		if got := expand(in, vars); got != want {
			t.Errorf("expand(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPodEnvSeesOnlyEarlierVariables(t *testing.T) {
	c := container{Name: "c", Env: []envVar{
		{Name: "EARLY", Value: "$(LATE)-x"},
		{Name: "LATE", Value: "late"},
		{Name: "AFTER", Value: "$(LATE)-y"},
	}}
	env := podEnv(t, c, "p", "ns")
	if env["EARLY"] != "$(LATE)-x" || env["AFTER"] != "late-y" {
		t.Fatalf("podEnv: %v", env)
	}
}
