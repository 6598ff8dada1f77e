package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"flightalliance/internal/pki"
)

// The files of a keys directory (alliancectl keys --out DIR). Certificates are NAME.crt with
// their private key NAME.key; tokens ALLIANCE.token.
const (
	caName     = "ca"          // ca.crt, ca.key: the CA that signs every certificate below
	searchName = "search"      // the search server's certificate
	ctlName    = "alliancectl" // alliancectl's own, a client certificate for status, load, etcdctl
	trustName  = "trust"       // the search server's --trust file: "<alliance> <token>" lines
	caSubject  = "flightalliance local CA"
)

// defaultHosts are the subject alternative names of a local deployment's certificates: every
// process listens on 127.0.0.1, and localhost is what a user types.
var defaultHosts = []string{"127.0.0.1", "localhost"}

// keyDir is a keys directory.
type keyDir string

func (k keyDir) path(file string) string      { return filepath.Join(string(k), file) }
func (k keyDir) caCert() string               { return k.path(caName + ".crt") }
func (k keyDir) cert(name string) string      { return k.path(name + ".crt") }
func (k keyDir) key(name string) string       { return k.path(name + ".key") }
func (k keyDir) token(alliance string) string { return k.path(alliance + ".token") }
func (k keyDir) trust() string                { return k.path(trustName) }

// clientFiles are alliancectl's own TLS files: it trusts the CA and presents its certificate.
func (k keyDir) clientFiles() pki.Files {
	return pki.Files{CertFile: k.cert(ctlName), KeyFile: k.key(ctlName), CAFile: k.caCert()}
}

// serverFiles are the --tls-* files of the server (machine or search server) called name.
func (k keyDir) serverFiles(name string) pki.Files {
	return pki.Files{CertFile: k.cert(name), KeyFile: k.key(name), CAFile: k.caCert()}
}

// keySpec is what a keys directory must hold.
type keySpec struct {
	Dir       keyDir
	Alliances []string // a token each, and a line each in the trust file
	Machines  []string // a certificate each, besides the search server's and alliancectl's
	Hosts     []string // subject alternative names of every certificate not in HostsOf
	// HostsOf gives a process (a machine, search or alliancectl) its own subject alternative
	// names instead of Hosts: the names it is reached by where it runs (keys --host).
	HostsOf map[string][]string
	Force   bool // start the directory over: a new CA and new everything
}

// hostsOf is the subject alternative names of name's certificate.
func (spec keySpec) hostsOf(name string) []string {
	if h, ok := spec.HostsOf[name]; ok {
		return h
	}
	return spec.Hosts
}

// keyFile is one file ensureKeys wrote or found.
type keyFile struct {
	Path  string
	What  string
	Wrote bool // false: it was there and is kept
	Gone  bool // removed by --force
}

// ensureKeys makes the keys spec asks for in spec.Dir, keeping those already there (checked:
// signed by the directory's CA, valid now, for its hosts, secrets mode 0600) and signing
// missing certificates with the directory's CA, so that `up` can reuse a directory and `add`
// can give a new machine a certificate the others trust. It refuses files it did not make (no
// ca.crt beside them) or that fail a check, naming --force, which starts the directory over.
func ensureKeys(spec keySpec) ([]keyFile, error) {
	k := spec.Dir
	if err := os.MkdirAll(string(k), 0o700); err != nil {
		return nil, fmt.Errorf("keys: %w", err)
	}
	var files []keyFile
	if spec.Force {
		removed, err := removeKeys(k)
		if err != nil {
			return nil, err
		}
		for _, r := range removed {
			files = append(files, keyFile{Path: r, Gone: true})
		}
	}
	names := append(slices.Clone(spec.Machines), searchName, ctlName)
	ca, caFiles, err := openCA(k, names, spec.Alliances)
	if err != nil {
		return nil, err
	}
	files = append(files, caFiles...)
	for _, name := range names {
		f, err := ensureCert(k, ca, name, spec.hostsOf(name))
		if err != nil {
			return nil, err
		}
		files = append(files, f...)
	}
	tokens := map[string][]string{}
	for _, a := range spec.Alliances {
		f, toks, err := ensureToken(k, a)
		if err != nil {
			return nil, err
		}
		tokens[a] = toks
		files = append(files, f)
	}
	f, err := ensureTrust(k, spec.Alliances, tokens)
	if err != nil {
		return nil, err
	}
	return append(files, f), nil
}

// errForce ends every refusal: what to run to start over.
func errForce(k keyDir) string {
	return fmt.Sprintf("`alliancectl keys --out %s --force` makes new keys (every process using the old ones must then restart)",
		shellQuote(relPath(string(k))))
}

// removeKeys removes the files of a keys directory that alliancectl keys makes.
func removeKeys(k keyDir) ([]string, error) {
	entries, err := os.ReadDir(string(k))
	if err != nil {
		return nil, fmt.Errorf("keys: %w", err)
	}
	var removed []string
	for _, e := range entries {
		n := e.Name()
		ext := filepath.Ext(n)
		if e.Type().IsRegular() && (ext == ".crt" || ext == ".key" || ext == ".token" || n == trustName) {
			if err := os.Remove(k.path(n)); err != nil {
				return nil, fmt.Errorf("keys: %w", err)
			}
			removed = append(removed, k.path(n))
		}
	}
	return removed, nil
}

// fileExists is true when path names something, whatever it is.
func fileExists(path string) bool {
	_, err := os.Lstat(path)
	return !errors.Is(err, fs.ErrNotExist)
}
