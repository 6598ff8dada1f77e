// Package flightfile reads and writes the flight files of docs/api.md on disk: a seller's CSV file
// loaded into a flight.Seller, and a directory of generated files. It is the file edge of the
// pure package flight, which parses and writes CSV only through an io.Reader or io.Writer; it
// must not hold any rule of the format itself.
package flightfile

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"flightalliance/alliance/flight"
)

// LoadSeller reads the flight file at path and builds the Seller code from it (flight.ReadSeller);
// errors name the path.
func LoadSeller(path, code string) (*flight.Seller, error) {
	if err := flight.CheckSeller(code); err != nil {
		return nil, fmt.Errorf("load seller from %s: %w", path, err)
	}
	file, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load seller %s: %w", code, err)
	}
	defer file.Close()
	return flight.ReadSeller(file, path, code)
}

// WriteDir writes each seller's flights to dir/<SELLER>.csv (creating dir if needed), sellers in
// sorted order. Each file appears whole or not at all: it is written aside and renamed.
func WriteDir(dir string, data map[string][]flight.Flight) error {
	codes := make([]string, 0, len(data))
	for code := range data {
		if err := flight.CheckSeller(code); err != nil {
			return fmt.Errorf("write flights to %s: %w", dir, err)
		}
		codes = append(codes, code)
	}
	slices.Sort(codes)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write flights: %w", err)
	}
	for _, code := range codes {
		if err := writeFile(filepath.Join(dir, code+".csv"), data[code]); err != nil {
			return err
		}
	}
	return nil
}

// writeFile writes one flight file through a temporary file in the same directory, renamed
// into place, so that a reader never sees half a file.
func writeFile(path string, flights []flight.Flight) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write flights: %w", err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename this finds nothing
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("write flights: %w", err)
	}
	if err := flight.WriteCSV(tmp, flights); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write flights: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write flights: %w", err)
	}
	return nil
}
