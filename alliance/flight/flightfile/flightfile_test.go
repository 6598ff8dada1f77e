package flightfile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"flightalliance/alliance/flight"
)

func TestLoadSeller(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "LY.csv")
	in := "flight,seller,src,dst,departure,arrival,price,seats\n" +
		"LY001,LY,TLV,JFK,2026-12-01T08:00:00Z,2026-12-01T19:10:00Z,512.00,180\n"
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := LoadSeller(path, "LY")
	if err != nil || s.Code() != "LY" || s.Len() != 1 {
		t.Fatalf("LoadSeller = %v, %v", s, err)
	}
	if _, err := LoadSeller(path, "UA"); err == nil || !strings.HasPrefix(err.Error(), path+":2: seller: LY is not the expected seller UA") {
		t.Errorf("LoadSeller with the wrong code: %v", err)
	}
	if _, err := LoadSeller(path, "u"); err == nil || !errors.Is(err, flight.ErrInvalid) {
		t.Errorf("LoadSeller with a bad code: %v", err)
	}
	missing := filepath.Join(dir, "none.csv")
	if _, err := LoadSeller(missing, "LY"); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("LoadSeller(missing) = %v; want a not-exist error naming the path", err)
	}
}

func TestWriteDirLoadsBack(t *testing.T) {
	from := flight.Date{Y: 2026, M: time.December, D: 1}
	data, err := flight.Generate(flight.GenerateConfig{Sellers: []string{"LY", "UA"}, From: from, Days: 2, PerDay: 25, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "data")
	if err := WriteDir(dir, data); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"LY.csv", "UA.csv"}) {
		t.Fatalf("WriteDir wrote %v", names)
	}
	for code, flights := range data {
		s, err := LoadSeller(filepath.Join(dir, code+".csv"), code)
		if err != nil {
			t.Fatal(err)
		}
		want, err := flight.NewSeller(code, flights)
		if err != nil {
			t.Fatal(err)
		}
		if s.Version() != want.Version() {
			t.Errorf("%s.csv does not load back to the generated flights", code)
		}
	}
	if err := WriteDir(dir, map[string][]flight.Flight{"../X": nil}); !errors.Is(err, flight.ErrInvalid) {
		t.Errorf("WriteDir with a path as seller code: %v; want ErrInvalid", err)
	}
}
