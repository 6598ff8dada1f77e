package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// sellerPools are the seller codes handed out per alliance, in order; beyond them codes are
// made up, two characters like real airline designators (Q7, ZK...), three when those run out.
var sellerPools = [][]string{
	{"LY", "UA", "LH", "AC", "NH", "SQ", "TK", "LX", "OS", "SK"},
	{"BA", "AA", "QF", "CX", "IB", "JL", "AY", "QR", "AS", "RJ"},
	{"AF", "DL", "KL", "AZ", "KE", "MU", "AM", "VN", "SV", "GA"},
}

// allianceNames are the names of the first alliances; later ones are alliance4, alliance5...
var allianceNames = []string{"star", "oneworld", "skyteam"}

func allianceName(i int) string {
	if i < len(allianceNames) {
		return allianceNames[i]
	}
	return "alliance" + strconv.Itoa(i+1)
}

// maxAlliances bounds `up --alliances`.
const maxAlliances = 20

// sellerCode is the j-th seller of the i-th of n alliances (i and j from 0): distinct for every
// (i, j) with i < n. Made-up codes are interleaved by alliance, so the shortest go around.
func sellerCode(i, j, n int) string {
	pool := 0
	if i < len(sellerPools) {
		pool = len(sellerPools[i])
		if j < pool {
			return sellerPools[i][j]
		}
	}
	return madeUpCodes()[(j-pool)*n+i]
}

// madeUpCodes lists, in a fixed order, the codes of a letter and a letter or digit, then of a
// letter and two letters or digits, without the pools' codes.
var madeUpCodes = sync.OnceValue(func() []string {
	const first, rest = "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	pooled := map[string]bool{}
	for _, p := range sellerPools {
		for _, c := range p {
			pooled[c] = true
		}
	}
	var out []string
	for _, a := range first {
		for _, b := range rest {
			if c := string(a) + string(b); !pooled[c] {
				out = append(out, c)
			}
		}
	}
	for _, a := range first {
		for _, b := range rest {
			for _, c := range rest {
				out = append(out, string(a)+string(b)+string(c))
			}
		}
	}
	return out
})

// csvPath is where seller code's flight file lives.
func (d DataSpec) csvPath(code string) string { return filepath.Join(d.Dir, code+".csv") }

// generate writes the CSV files of sellers that have none yet, with `flights generate`. A
// seller's schedule depends only on the generator's seed (--seed) and its code, so files made later (by `add`) fit
// the ones made by `up`.
func generate(ctx context.Context, bin string, d DataSpec, sellers []string) error {
	var missing []string
	for _, s := range sellers {
		if _, err := os.Stat(d.csvPath(s)); err != nil {
			missing = append(missing, s)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "flights"), "generate",
		"--sellers", strings.Join(missing, ","), "--from", d.From, "--days", strconv.Itoa(d.Days),
		"--per-day", strconv.Itoa(d.PerDay), "--seed", strconv.FormatInt(d.Seed, 10), "--out", d.Dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %w: %s", shellLine(cmd.Args), err, strings.TrimSpace(string(out)))
	}
	return nil
}

// routes reads the flights of the given sellers' CSV files (docs/api.md, "Flight data files") and returns every
// distinct (src, dst, date) with a direct flight, in file order: queries that have trips.
func routes(d DataSpec, sellers []string) ([]Query, error) {
	seen := map[Query]bool{}
	var out []Query
	for _, s := range sellers {
		qs, err := readRoutes(d.csvPath(s))
		if err != nil {
			return nil, err
		}
		for _, q := range qs {
			if !seen[q] {
				seen[q] = true
				out = append(out, q)
			}
		}
	}
	if len(out) == 0 {
		return nil, errors.New("the generated data has no flights (is --per-day 0?)")
	}
	return out, nil
}

// routesIn is routes of every CSV file in dir (a seller's file each, as the machines load them).
func routesIn(dir string) ([]Query, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.csv"))
	if err != nil {
		return nil, usagef("--data: %v", err)
	}
	if len(files) == 0 {
		return nil, usagef("--data: %s holds no .csv file (the sellers' flight files)", dir)
	}
	seen := map[Query]bool{}
	var out []Query
	for _, f := range files {
		qs, err := readRoutes(f)
		if err != nil {
			return nil, fmt.Errorf("--data: %w", err)
		}
		for _, q := range qs {
			if !seen[q] {
				seen[q] = true
				out = append(out, q)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--data: the CSV files in %s have no flights", dir)
	}
	return out, nil
}

func readRoutes(path string) ([]Query, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: header: %w", path, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	for _, need := range []string{"src", "dst", "departure"} {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("%s: no %q column in the header %v", path, need, header)
		}
	}
	var out []Query
	for line := 2; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", path, line, err)
		}
		dep := rec[col["departure"]]
		if len(dep) < len("2006-01-02") {
			return nil, fmt.Errorf("%s: line %d: departure %q is not RFC 3339", path, line, dep)
		}
		out = append(out, Query{Src: rec[col["src"]], Dst: rec[col["dst"]], Date: dep[:10]})
	}
}

// showcase picks the query `up` waits on and prints: the first route of the first day.
func showcase(qs []Query, first string) Query {
	if i := slices.IndexFunc(qs, func(q Query) bool { return q.Date == first }); i >= 0 {
		return qs[i]
	}
	return qs[0]
}
