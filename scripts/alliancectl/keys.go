package main

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

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
	Hosts     []string // subject alternative names of every certificate
	Force     bool     // start the directory over: a new CA and new everything
}

// keyFile is one file ensureKeys wrote or found.
type keyFile struct {
	Path  string
	What  string
	Wrote bool // false: it was there and is kept
	Gone  bool // removed by --force
}

// ensureKeys makes the keys spec asks for in spec.Dir, keeping those already there (checked:
// signed by the directory's CA, valid now, for spec.Hosts, secrets mode 0600) and signing
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
		f, err := ensureCert(k, ca, name, spec.Hosts)
		if err != nil {
			return nil, err
		}
		files = append(files, f...)
	}
	tokens := map[string]string{}
	for _, a := range spec.Alliances {
		f, tok, err := ensureToken(k, a)
		if err != nil {
			return nil, err
		}
		tokens[a] = tok
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

// issuer signs certificates: a new *pki.CA, or the CA of an existing directory.
type issuer interface {
	Issue(name string, hosts ...string) (pki.Pair, error)
}

// openCA loads the directory's CA, or makes one when the directory holds none of the files
// names and alliances would need (anything else there was not signed by it).
func openCA(k keyDir, names, alliances []string) (issuer, []keyFile, error) {
	if fileExists(k.caCert()) {
		ca, err := loadCA(k)
		if err != nil {
			return nil, nil, fmt.Errorf("%w; %s", err, errForce(k))
		}
		return ca, []keyFile{{Path: k.caCert(), What: "the CA's certificate"}, {Path: k.key(caName), What: "the CA's key"}}, nil
	}
	var found []string
	for _, p := range []string{k.key(caName), k.trust()} {
		if fileExists(p) {
			found = append(found, p)
		}
	}
	for _, n := range names {
		for _, p := range []string{k.cert(n), k.key(n)} {
			if fileExists(p) {
				found = append(found, p)
			}
		}
	}
	for _, a := range alliances {
		if fileExists(k.token(a)) {
			found = append(found, k.token(a))
		}
	}
	if len(found) > 0 {
		return nil, nil, fmt.Errorf("%s holds %s but no %s: not keys alliancectl made, so not overwritten; %s",
			relPath(string(k)), strings.Join(found, ", "), caName+".crt", errForce(k))
	}
	ca, err := pki.NewCA(caSubject)
	if err != nil {
		return nil, nil, err
	}
	if err := os.WriteFile(k.caCert(), ca.CertPEM, 0o644); err != nil {
		return nil, nil, err
	}
	if err := pki.WriteSecret(k.key(caName), ca.KeyPEM); err != nil {
		return nil, nil, err
	}
	return ca, []keyFile{
		{Path: k.caCert(), What: "the CA's certificate: clients verify the servers with it (curl --cacert, flights --ca)", Wrote: true},
		{Path: k.key(caName), What: "the CA's key: alliancectl signs new machines' certificates with it", Wrote: true},
	}, nil
}

// ensureCert keeps name's certificate when it checks out, or issues one.
func ensureCert(k keyDir, ca issuer, name string, hosts []string) ([]keyFile, error) {
	what := "machine " + name + "'s certificate"
	switch name {
	case searchName:
		what = "the search server's certificate"
	case ctlName:
		what = "alliancectl's certificate, a client's: status, load, curl --cert, etcdctl --cert"
	}
	crt, key := k.cert(name), k.key(name)
	if fileExists(crt) || fileExists(key) {
		if err := checkCert(k, name, hosts); err != nil {
			return nil, fmt.Errorf("%w; %s", err, errForce(k))
		}
		return []keyFile{{Path: crt, What: what}, {Path: key, What: "its key"}}, nil
	}
	pair, err := ca.Issue(name, hosts...)
	if err != nil {
		return nil, fmt.Errorf("keys: issuing %s: %w", name, err)
	}
	if _, _, err := pair.Write(string(k), name); err != nil {
		return nil, fmt.Errorf("keys: %w", err)
	}
	return []keyFile{{Path: crt, What: what + " (" + strings.Join(hosts, ", ") + ")", Wrote: true},
		{Path: key, What: "its key", Wrote: true}}, nil
}

// checkCert says why name's certificate in k cannot be used for hosts: missing, another key,
// not signed by the directory's CA, expired, without one of the hosts, or a key others may read.
func checkCert(k keyDir, name string, hosts []string) error {
	crt, key := k.cert(name), k.key(name)
	if err := checkSecret(key); err != nil {
		return err
	}
	pair, err := tls.LoadX509KeyPair(crt, key)
	if err != nil {
		return fmt.Errorf("%s, %s: %w", crt, key, err)
	}
	cert, err := x509.ParseCertificate(pair.Certificate[0])
	if err != nil {
		return fmt.Errorf("%s: %w", crt, err)
	}
	caPEM, err := os.ReadFile(k.caCert())
	if err != nil {
		return err
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(caPEM)
	if _, err := cert.Verify(x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}}); err != nil {
		return fmt.Errorf("%s does not verify against %s: %w", crt, k.caCert(), err)
	}
	for _, h := range hosts {
		if err := cert.VerifyHostname(h); err != nil {
			return fmt.Errorf("%s is not valid for %s (it was made for other --hosts)", crt, h)
		}
	}
	return nil
}

// checkSecret says why a private key or token file cannot be kept: missing, or readable by
// others than its owner.
func checkSecret(file string) error {
	st, err := os.Stat(file)
	if err != nil {
		return fmt.Errorf("keys: %w", err)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("%s is readable by others (mode %#o): chmod 600 it", file, perm)
	}
	return nil
}

// ensureToken keeps alliance a's token or makes one; it returns the token for the trust file.
func ensureToken(k keyDir, a string) (keyFile, string, error) {
	f := keyFile{Path: k.token(a), What: "alliance " + a + "'s token (its machines' --token-file)"}
	if fileExists(f.Path) {
		tok, err := pki.ReadToken(f.Path)
		if err != nil {
			return f, "", fmt.Errorf("%w; %s", err, errForce(k))
		}
		return f, tok, nil
	}
	tok := pki.Token()
	if err := pki.WriteSecret(f.Path, []byte(tok+"\n")); err != nil {
		return f, "", fmt.Errorf("keys: %w", err)
	}
	f.Wrote = true
	return f, tok, nil
}

// ensureTrust writes the search server's trust file: one line per alliance with its token.
// Lines for other alliances and comments in an existing file are kept.
func ensureTrust(k keyDir, alliances []string, tokens map[string]string) (keyFile, error) {
	f := keyFile{Path: k.trust(), What: "the search server's --trust file (" + strings.Join(alliances, ", ") + ")"}
	var old []byte
	if fileExists(f.Path) {
		if err := checkSecret(f.Path); err != nil {
			return f, fmt.Errorf("%w; %s", err, errForce(k))
		}
		var err error
		if old, err = os.ReadFile(f.Path); err != nil {
			return f, err
		}
	}
	data := trustFile(old, alliances, tokens)
	if string(data) == string(old) {
		return f, nil
	}
	if err := pki.WriteSecret(f.Path, data); err != nil {
		return f, fmt.Errorf("keys: %w", err)
	}
	f.Wrote = true
	return f, nil
}

// trustFile is old with each of alliances' lines set to its token (added when missing).
func trustFile(old []byte, alliances []string, tokens map[string]string) []byte {
	var b strings.Builder
	if len(old) == 0 {
		b.WriteString("# The search server's --trust file, made by alliancectl keys: <alliance> <token> per line.\n")
	}
	done := map[string]bool{}
	for line := range strings.Lines(string(old)) {
		fields := strings.Fields(line)
		if len(fields) > 0 && !strings.HasPrefix(fields[0], "#") && slices.Contains(alliances, fields[0]) {
			if done[fields[0]] {
				continue
			}
			done[fields[0]] = true
			line = fields[0] + " " + tokens[fields[0]] + "\n"
		}
		if !strings.HasSuffix(line, "\n") {
			line += "\n"
		}
		b.WriteString(line)
	}
	for _, a := range alliances {
		if !done[a] {
			b.WriteString(a + " " + tokens[a] + "\n")
		}
	}
	return []byte(b.String())
}

// fileExists is true when path names something, whatever it is.
func fileExists(path string) bool {
	_, err := os.Lstat(path)
	return !errors.Is(err, fs.ErrNotExist)
}
