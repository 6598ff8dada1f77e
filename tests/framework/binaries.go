package framework

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// binDir holds the binaries Main built once for the whole test package.
var binDir string

// Main is a process-test package's TestMain: it builds every command (flightalliance/cmd/...)
// once into a temporary directory, runs setup with that directory (for files the package's
// tests share, such as its certificates), runs the tests and removes the directory.
func Main(m *testing.M, setup func(dir string) error) {
	dir, err := os.MkdirTemp("", "flightalliance-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	build := exec.Command("go", "build", "-o", dir+string(os.PathSeparator), "flightalliance/cmd/...")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the binaries:", err)
		os.Exit(2)
	}
	binDir = dir
	if err := setup(dir); err != nil {
		fmt.Fprintln(os.Stderr, "setting up:", err)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// Bin is the path of the binary name (airline, search, flights, alliancectl) Main built.
func Bin(name string) string { return filepath.Join(binDir, name) }
