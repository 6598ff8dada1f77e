package wsdl

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

var testDef = Def{
	Service:   "PingService",
	Namespace: "urn:example:v1",
	Schema: `
      <xsd:element name="ping"><xsd:complexType><xsd:sequence/></xsd:complexType></xsd:element>
      <xsd:element name="pingResponse"><xsd:complexType><xsd:sequence/></xsd:complexType></xsd:element>
      <xsd:element name="echo"><xsd:complexType><xsd:sequence/></xsd:complexType></xsd:element>
      <xsd:element name="echoResponse"><xsd:complexType><xsd:sequence/></xsd:complexType></xsd:element>`,
	Ops: []string{"ping", "echo"},
}

// TestParseReadsBackDocument: what Parse reads of a rendered document is what it was rendered
// from — the address (escaped in the document), the namespace, the operations in order, each
// operation's SOAPAction.
func TestParseReadsBackDocument(t *testing.T) {
	address := "http://127.0.0.1:8101/Services/PingService?a=1&b=2"
	doc, err := Parse(testDef.Document(address))
	if err != nil {
		t.Fatal(err)
	}
	if got := doc.Address(); got != address {
		t.Errorf("Address %q, want %q", got, address)
	}
	if got := doc.Namespace(); got != testDef.Namespace {
		t.Errorf("Namespace %q, want %q", got, testDef.Namespace)
	}
	if got := doc.Operations(); !slices.Equal(got, testDef.Ops) {
		t.Errorf("Operations %q, want %q", got, testDef.Ops)
	}
	for _, op := range testDef.Ops {
		if !doc.HasOperation(op) || doc.SoapAction(op) != "urn:example:v1/"+op {
			t.Errorf("%s: HasOperation %v, SoapAction %q", op, doc.HasOperation(op), doc.SoapAction(op))
		}
	}
	if doc.HasOperation("pong") || doc.SoapAction("pong") != "" {
		t.Error("an operation the document lacks is found")
	}
}

// TestParseRefusesUnusable: a document that cannot drive a call is ErrUnusable, saying why.
func TestParseRefusesUnusable(t *testing.T) {
	good := string(testDef.Document("http://x/p"))
	for _, c := range []struct{ name, doc, says string }{
		{"empty", "", "EOF"},
		{"not XML", "garbage", "unexpected text"},
		{"DTD", `<!DOCTYPE x>` + good[strings.Index(good, "<wsdl:definitions"):], "DTDs"},
		{"other root", `<definitions/>`, "want wsdl:definitions"},
		{"no binding", `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"><portType/></definitions>`, "xsd:schema targetNamespace"},
		{"no service", strings.Replace(good, "wsdl:service", "wsdl:notservice", 2), "no wsdl:service"},
		{"empty location", strings.Replace(good, `location="http://x/p"`, `location=""`, 1), "empty soap:address"},
	} {
		_, err := Parse([]byte(c.doc))
		if !errors.Is(err, ErrUnusable) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want ErrUnusable saying %q", c.name, err, c.says)
		}
	}
}
