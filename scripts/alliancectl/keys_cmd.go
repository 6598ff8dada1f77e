package main

import (
	"context"
	"fmt"
	"io"
	"net"
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

func cmdKeys(_ context.Context, args []string, out io.Writer) error {
	fs, dir := newFlags("keys", "keys [--out DIR] [--alliances star,oneworld] [--machines N] [--hosts 127.0.0.1,localhost] [--force]", out)
	outDir := fs.String("out", "", "directory to write the keys into (default: DIR/keys of --dir, where up and run look)")
	alliances := fs.String("alliances", "star", "alliances (comma-separated): a token each and a line each in the search server's trust file")
	machines := fs.Int("machines", 3, "machines per alliance: a certificate each, named as up names them (m1, m2...)")
	hosts := fs.String("hosts", strings.Join(defaultHosts, ","), "IP addresses and DNS names (comma-separated) every certificate is valid for")
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
	if spec.Hosts, err = nameList("--hosts", *hosts, validHost); err != nil {
		return err
	}
	files, err := ensureKeys(spec)
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
	if wrote == 0 {
		fmt.Fprintf(out, "%s already holds these keys (%d files, checked); nothing written (--force makes new ones)\n", relPath(abs), kept)
		return nil
	}
	if kept > 0 {
		fmt.Fprintf(out, "kept the %d files already there (checked: signed by its CA, for --hosts, mode 0600)\n", kept)
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
