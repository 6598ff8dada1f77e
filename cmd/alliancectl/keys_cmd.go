package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// machineNames are the names `up` gives n machines: m1, m2...
func machineNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "m" + strconv.Itoa(i+1)
	}
	return out
}

// keysSynopsis is the keys command's help: its flags and the layout it writes.
const keysSynopsis = `keys [--out DIR] [--alliances star,oneworld] [--machines N] [--hosts 127.0.0.1,localhost]
                       [--names a,b,c] [--host NAME=h1,h2 ...] [--force]

Makes a CA, a certificate per process (machines m1..mN per alliance, search, alliancectl), a token
per alliance and the search server's trust file. Layout of DIR:

  DIR/ca.crt ca.key                  the CA; ca.key signs new certificates and never leaves DIR
  DIR/NAME.crt NAME.key              each process's certificate (server and client use) and key
  DIR/ALLIANCE.token  DIR/trust      each alliance's token; the search server's trust file
  DIR/hosts/mN/                      what machine mN's host needs: ca.crt mN.crt mN.key ALLIANCE.token
  DIR/hosts/search/                  the search server's: ca.crt search.crt search.key trust
  DIR/hosts/alliancectl/             the operator's client: ca.crt alliancectl.crt alliancectl.key

Keys, tokens and the trust file are mode 0600, directories 0700. up and run use the flat files.
A certificate is valid for --hosts, or for a process's own names with --host NAME=h1,h2 (e.g.
--host m1=m1,m1.star.svc,10.0.0.5 --host search=search,localhost,127.0.0.1).`

func cmdKeys(_ context.Context, args []string, out io.Writer) error {
	fs, dir := newFlags("keys", keysSynopsis, out)
	outDir := fs.String("out", "", "directory to write the keys into (default: DIR/keys of --dir, where up and run look)")
	alliances := fs.String("alliances", "star", "alliances (comma-separated): a token each and a line each in the search server's trust file")
	machines := fs.Int("machines", 3, "machines per alliance: a certificate each, named as up names them (m1, m2...)")
	names := fs.String("names", "", "the machines' names, comma-separated, instead of m1..mN (one alliance): a StatefulSet's pods, star-0,star-1,star-2")
	hosts := fs.String("hosts", strings.Join(defaultHosts, ","), "IP addresses and DNS names (comma-separated) of every certificate without a --host")
	var hostFlags []string
	fs.Func("host", "NAME=h1,h2: the IP addresses and DNS names of process NAME's certificate (a machine, search or alliancectl), instead of --hosts (repeatable)",
		func(v string) error { hostFlags = append(hostFlags, v); return nil })
	force := fs.Bool("force", false, "remove the directory's keys and make new ones (every process using the old ones must restart)")
	if _, err := parse(fs, args, 0, ""); err != nil {
		return err
	}
	if *outDir == "" {
		*outDir = filepath.Join(*dir, "keys")
	}
	abs, err := absDir("--out", *outDir)
	if err != nil {
		return err
	}
	spec := keySpec{Dir: keyDir(abs), Force: *force}
	if spec.Alliances, err = nameList("--alliances", *alliances, machineNameRe.MatchString); err != nil {
		return err
	}
	if *machines < 0 || *machines > 50 {
		return usagef("--machines: %d, want 0 to 50 per alliance", *machines)
	}
	spec.Machines = machineNames(*machines * len(spec.Alliances))
	allianceOf := func(m string) string {
		i := slices.Index(spec.Machines, m)
		return spec.Alliances[i / *machines]
	}
	if *names != "" {
		if len(spec.Alliances) != 1 {
			return usagef("--names: the machines of one alliance, and --alliances gives %d", len(spec.Alliances))
		}
		if spec.Machines, err = nameList("--names", *names, machineNameRe.MatchString); err != nil {
			return err
		}
		allianceOf = func(string) string { return spec.Alliances[0] }
	}
	if spec.Hosts, err = nameList("--hosts", *hosts, validHost); err != nil {
		return err
	}
	if spec.HostsOf, err = parseHostFlags(hostFlags, append(slices.Clone(spec.Machines), searchName, ctlName)); err != nil {
		return err
	}
	if *force {
		if fileExists(spec.Dir.path(hostsDir)) {
			if err := os.RemoveAll(spec.Dir.path(hostsDir)); err != nil {
				return fmt.Errorf("keys: %w", err)
			}
			fmt.Fprintf(out, "removed %s, the copies for each host (--force)\n", relPath(spec.Dir.path(hostsDir)))
		}
	}
	files, err := ensureKeys(spec)
	if err != nil {
		return err
	}
	kits := hostKits(spec, allianceOf)
	copied, err := writeHostKits(spec.Dir, kits)
	if err != nil {
		return err
	}
	kept, gone := 0, 0
	for _, f := range files {
		switch {
		case f.Gone:
			gone++
		case !f.Wrote:
			kept++
		}
	}
	if gone > 0 {
		fmt.Fprintf(out, "removed the %d files of the old keys (--force)\n", gone)
	}
	wrote := writeKeyFiles(out, files)
	switch {
	case wrote == 0 && copied == 0:
		fmt.Fprintf(out, "%s already holds these keys (%d files, checked); nothing written (--force makes new ones)\n", relPath(abs), kept)
	case wrote == 0:
		fmt.Fprintf(out, "%s already holds these keys (%d files, checked); brought %d files of %s up to date\n",
			relPath(abs), kept, copied, relPath(spec.Dir.path(hostsDir)))
	case kept > 0:
		fmt.Fprintf(out, "kept the %d files already there (checked: signed by its CA, for their hosts, mode 0600)\n", kept)
	}
	printHostKits(out, spec.Dir, kits)
	if wrote == 0 {
		return nil
	}
	if len(spec.HostsOf) > 0 {
		fmt.Fprintf(out, "private keys, tokens and the trust file are mode 0600; copy each host's directory to it (its --tls-*, --token-file, --trust)\n")
		return nil
	}
	use := " --keys " + shellQuote(relPath(abs))
	if filepath.Base(abs) == "keys" {
		use = " --dir " + shellQuote(relPath(filepath.Dir(abs)))
		if def, _ := filepath.Abs("var/run"); filepath.Dir(abs) == def {
			use = ""
		}
	}
	fmt.Fprintf(out, "private keys, tokens and the trust file are mode 0600; `%s run%s` and `up` use them\n", self(), use)
	return nil
}

// parseHostFlags reads --host NAME=h1,h2 flags: NAME one of names, each NAME once, each host an
// IP address or DNS name.
func parseHostFlags(flags, names []string) (map[string][]string, error) {
	out := map[string][]string{}
	for _, f := range flags {
		name, list, ok := strings.Cut(f, "=")
		switch {
		case !ok || name == "" || list == "":
			return nil, usagef("--host: %q is not NAME=h1,h2 (e.g. m1=m1,m1.star.svc,10.0.0.5)", f)
		case !slices.Contains(names, name):
			return nil, usagef("--host: no process named %q: the certificates are for %s (--machines and --alliances say how many machines)",
				name, strings.Join(names, ", "))
		case out[name] != nil:
			return nil, usagef("--host: %s given twice", name)
		}
		hosts, err := nameList("--host "+name, list, validHost)
		if err != nil {
			return nil, err
		}
		out[name] = hosts
	}
	return out, nil
}

// writeKeyFiles lists the files ensureKeys wrote and returns how many.
func writeKeyFiles(out io.Writer, files []keyFile) int {
	wrote := 0
	for _, f := range files {
		if f.Wrote {
			wrote++
			fmt.Fprintf(out, "wrote %-28s %s\n", relPath(f.Path), f.What)
		}
	}
	return wrote
}

// nameList splits a comma-separated flag value, refusing empty, duplicate or invalid names.
func nameList(flagName, v string, valid func(string) bool) ([]string, error) {
	var out []string
	for _, n := range strings.Split(v, ",") {
		n = strings.TrimSpace(n)
		switch {
		case n == "":
			return nil, usagef("%s: %q has an empty name", flagName, v)
		case !valid(n):
			return nil, usagef("%s: %q is not a valid name", flagName, n)
		case slices.Contains(out, n):
			return nil, usagef("%s: %q given twice", flagName, n)
		}
		out = append(out, n)
	}
	return out, nil
}

// validHost accepts an IP address or a DNS name.
func validHost(h string) bool {
	if net.ParseIP(h) != nil {
		return true
	}
	return len(h) <= 253 && strings.IndexFunc(h, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '*')
	}) < 0
}
