package daemonconfig

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// maxFileBytes bounds a config file: a few hundred flags, not a data file.
const maxFileBytes = 1 << 20

// setFromFile sets, from the config file at path, every flag neither the command line nor the
// environment gave. Every name in the file must be a flag's, whether or not it is set here.
func setFromFile(fs *flag.FlagSet, path, configFlag string, origins Origins) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("--%s: %w", configFlag, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return fmt.Errorf("--%s: %w", configFlag, err)
	}
	if len(data) > maxFileBytes {
		return fmt.Errorf("--%s: %s is larger than %d bytes: not a config file", configFlag, path, maxFileBytes)
	}
	seen := map[string]string{} // flag → where the file first gave it
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(make([]byte, 0, 4096), maxFileBytes)
	for n := 1; sc.Scan(); n++ {
		where := path + ":" + strconv.Itoa(n)
		name, value, ok := splitLine(sc.Text())
		if !ok {
			continue
		}
		fl := fs.Lookup(name)
		switch {
		case fl == nil:
			return &SourceError{Where: where, Err: fmt.Errorf("%q is not a flag (a typo?)", name)}
		case name == configFlag:
			return &SourceError{Where: where, Flag: name, Err: errors.New("a config file cannot name another")}
		case seen[name] != "" && !isRepeatable(fl.Value):
			return &SourceError{Where: where, Flag: name, Err: fmt.Errorf("given again (first at %s): only a repeatable flag may take several lines", seen[name])}
		}
		if value == "" {
			if !isBool(fl.Value) {
				return &SourceError{Where: where, Flag: name, Err: errors.New("needs a value")}
			}
			value = "true"
		}
		if seen[name] == "" {
			seen[name] = where
		}
		if k := origins[name].Kind; k == CommandLine || k == Environment {
			continue
		}
		if err := set(fs, name, value, where); err != nil {
			return err
		}
		if origins[name].Kind != File {
			origins[name] = Origin{Kind: File, Where: where}
		}
	}
	return sc.Err()
}

// splitLine is a config file line's flag name (its dashes dropped) and value; ok is false for a
// blank or comment line. The name ends at the first space or tab; a '#' after white space
// begins a comment.
func splitLine(line string) (name, value string, ok bool) {
	line = strings.TrimSpace(line)
	if line == "" || line[0] == '#' {
		return "", "", false
	}
	name = line
	if i := strings.IndexAny(line, " \t"); i >= 0 {
		name, value = line[:i], line[i:]
	}
	for _, comment := range []string{" #", "\t#"} {
		if j := strings.Index(value, comment); j >= 0 {
			value = value[:j]
		}
	}
	return strings.TrimLeft(name, "-"), strings.TrimSpace(value), true
}

// isBool reports whether v is a boolean flag's value, which a name alone sets to true.
func isBool(v flag.Value) bool {
	b, ok := v.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}
