package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
)

// hostsDir is the folder of a keys directory that holds, per process, exactly the files to ship
// to the host it runs on: DIR/hosts/<name>/. The CA's key never goes there; it stays in DIR,
// with the operator, who signs new certificates with it.
const hostsDir = "hosts"

// hostKit is what one process's host gets.
type hostKit struct {
	Name  string   // m1, search, alliancectl
	Files []string // file names in DIR, copied to DIR/hosts/<Name>/
	Hosts []string // its certificate's subject alternative names
}

// hostKits lists the kit of every process of spec: a machine gets the CA's certificate, its own
// certificate and key and its alliance's token; the search server the CA's certificate, its own
// and the trust file; alliancectl (the operator's client) the CA's certificate and its own.
// allianceOf names each machine's alliance.
func hostKits(spec keySpec, allianceOf func(machine string) string) []hostKit {
	ca := caName + ".crt"
	var kits []hostKit
	for _, m := range spec.Machines {
		kits = append(kits, hostKit{Name: m, Hosts: spec.hostsOf(m),
			Files: []string{ca, m + ".crt", m + ".key", allianceOf(m) + ".token"}})
	}
	kits = append(kits,
		hostKit{Name: searchName, Hosts: spec.hostsOf(searchName),
			Files: []string{ca, searchName + ".crt", searchName + ".key", trustName}},
		hostKit{Name: ctlName, Hosts: spec.hostsOf(ctlName),
			Files: []string{ca, ctlName + ".crt", ctlName + ".key"}})
	return kits
}

// writeHostKits makes DIR/hosts/<name>/ hold exactly each kit's files, copied from DIR with
// their modes (secrets 0600, directories 0700); a file already there and the same is kept,
// anything else there is removed. It returns how many files it wrote or removed.
func writeHostKits(k keyDir, kits []hostKit) (int, error) {
	changed := 0
	root := k.path(hostsDir)
	if err := mkdirPrivate(root); err != nil {
		return 0, err
	}
	for _, kit := range kits {
		dir := filepath.Join(root, kit.Name)
		if err := mkdirPrivate(dir); err != nil {
			return changed, err
		}
		for _, f := range kit.Files {
			wrote, err := copyKeyFile(k.path(f), filepath.Join(dir, f))
			if err != nil {
				return changed, err
			}
			if wrote {
				changed++
			}
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return changed, err
		}
		for _, e := range entries {
			if !slices.Contains(kit.Files, e.Name()) {
				if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
					return changed, err
				}
				changed++
			}
		}
	}
	return changed, nil
}

// mkdirPrivate makes dir (mode 0700) or makes an existing one 0700.
func mkdirPrivate(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("keys: %w", err)
	}
	return os.Chmod(dir, 0o700)
}

// copyKeyFile copies src to dst with src's mode, unless dst is already the same; it reports
// whether it wrote.
func copyKeyFile(src, dst string) (bool, error) {
	data, err := os.ReadFile(src)
	if err != nil {
		return false, fmt.Errorf("keys: %w", err)
	}
	st, err := os.Stat(src)
	if err != nil {
		return false, fmt.Errorf("keys: %w", err)
	}
	mode := st.Mode().Perm()
	if old, err := os.ReadFile(dst); err == nil && bytes.Equal(old, data) {
		if dst, err := os.Stat(dst); err == nil && dst.Mode().Perm() == mode {
			return false, nil
		}
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("keys: %w", err)
	}
	if err := os.WriteFile(dst, data, mode); err != nil {
		return false, fmt.Errorf("keys: %w", err)
	}
	return true, os.Chmod(dst, mode)
}

// printHostKits says which files go to which host.
func printHostKits(out io.Writer, k keyDir, kits []hostKit) {
	fmt.Fprintf(out, "to ship: %s/<name>/ holds exactly what each host needs (the CA's key, %s, stays here):\n",
		relPath(k.path(hostsDir)), caName+".key")
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	for _, kit := range kits {
		use := "its certificate is valid for " + strings.Join(kit.Hosts, ", ")
		if kit.Name == ctlName {
			use = "the operator's client: alliancectl status|replicas|backup --keys " + relPath(filepath.Join(k.path(hostsDir), ctlName))
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", kit.Name, strings.Join(kit.Files, " "), use)
	}
	tw.Flush()
}
