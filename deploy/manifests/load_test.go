package manifests

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// deployDir is the tree the tests read: this package's parent.
const deployDir = ".."

// yamlDoc is one document of a YAML file under deploy/.
type yamlDoc struct {
	file  string // relative to deploy/
	index int    // the document's place in its file, from 0
	data  []byte
}

func (d yamlDoc) String() string {
	if d.index == 0 {
		return d.file
	}
	return d.file + " (document " + strconv.Itoa(d.index+1) + ")"
}

// yamlDocs reads every .yaml and .yml file under deploy/, split into documents at "---" lines;
// empty documents (comments only) are left out.
func yamlDocs(t *testing.T) []yamlDoc {
	t.Helper()
	var docs []yamlDoc
	err := filepath.WalkDir(deployDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || (filepath.Ext(path) != ".yaml" && filepath.Ext(path) != ".yml") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(deployDir, path)
		for i, part := range splitDocuments(data) {
			if !onlyComments(part) {
				docs = append(docs, yamlDoc{file: filepath.ToSlash(rel), index: i, data: part})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatalf("no YAML file under %s", deployDir)
	}
	return docs
}

func splitDocuments(data []byte) [][]byte {
	var docs [][]byte
	var cur bytes.Buffer
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		if strings.TrimRight(string(line), " \r\n") == "---" {
			docs = append(docs, bytes.Clone(cur.Bytes()))
			cur.Reset()
			continue
		}
		cur.Write(line)
	}
	return append(docs, cur.Bytes())
}

func onlyComments(doc []byte) bool {
	for _, line := range strings.Split(string(doc), "\n") {
		if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "#") {
			return false
		}
	}
	return true
}

// decode decodes doc into v (JSON field names, as Kubernetes spells them), failing the test
// with the file's name.
func decode(t *testing.T, doc yamlDoc, v any) {
	t.Helper()
	if err := yaml.Unmarshal(doc.data, v); err != nil {
		t.Fatalf("%s: %v", doc, err)
	}
}

// readFile reads a file under deploy/.
func readFile(t *testing.T, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(deployDir, rel))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestEveryYAMLFileParses(t *testing.T) {
	for _, doc := range yamlDocs(t) {
		var v map[string]any
		if err := yaml.Unmarshal(doc.data, &v); err != nil {
			t.Errorf("%s: %v", doc, err)
			continue
		}
		if strings.HasPrefix(doc.file, "k8s/") {
			var o object
			decode(t, doc, &o)
			if o.APIVersion == "" || o.Kind == "" || o.Metadata.Name == "" {
				t.Errorf("%s: a Kubernetes object needs apiVersion, kind and metadata.name; got %q, %q, %q",
					doc, o.APIVersion, o.Kind, o.Metadata.Name)
			}
		}
	}
}

func TestSplitDocuments(t *testing.T) {
	docs := splitDocuments([]byte("# head\na: 1\n---\nb: 2\n--- \n# only a comment\n"))
	if len(docs) != 3 || string(docs[0]) != "# head\na: 1\n" || string(docs[1]) != "b: 2\n" || !onlyComments(docs[2]) {
		t.Fatalf("splitDocuments: %q", docs)
	}
}
