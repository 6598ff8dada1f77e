// Package manifests holds the tests of the deployment files under deploy/: every YAML file parses,
// the Kubernetes objects fit together (the StatefulSet's Service, probes, volumes, Secrets and
// ConfigMap; the search server's Deployment and Service), the Compose services agree with their
// host names and keys, the systemd units have the settings a clean leave and a locked-down
// service need, and the command line and environment each pod, service and unit gets is accepted
// by the real binaries' --check-config.
//
// It decodes into small local structs and uses no Kubernetes or Compose library: it checks what
// this project's files rely on, not the platforms' whole schemas. It has no code outside tests.
package manifests
