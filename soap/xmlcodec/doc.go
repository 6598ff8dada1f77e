// Package xmlcodec is a fast XML reader and writer for a subset of XML, held byte for byte to
// what encoding/xml reads and writes. It is the engine of package soap's codec for its hot
// messages, which would otherwise spend most of a large answer's time in encoding/xml's
// reflection and token allocation.
//
// Reading, a Scanner tokenizes a document in memory as encoding/xml's Decoder does in Strict
// mode, and reads an element's content as Unmarshal fills a field (NextChild, Skip, Text, Int,
// Bool), or, for a reader that knows the order its fields are written in, each child by name
// when it is written plainly (PlainText, PlainUniqueText, PlainInt: no tokens made, the same
// values). It accepts only a subset — ASCII names, no DTD, bounded depth, the usual XML
// declaration — and whatever it does not accept, or cannot prove valid, stops it (Failed): the
// caller then decodes the whole input with encoding/xml. So the contract is one-sided: when the
// Scanner accepts a document, encoding/xml accepts it too and reads the same tokens and values;
// the Scanner never explains an error.
//
// Writing, AppendText and the Append*Element functions escape and write text exactly as
// encoding/xml's Encoder does, invalid UTF-8 and characters XML does not allow included.
// GetBuffer and PutBuffer recycle the buffers documents are written into and read into.
//
// The fuzz and property tests (scanner_test.go, scanner_prop_test.go, reader_test.go,
// escape_test.go, plain_test.go) compare every answer with encoding/xml's, type-agnostic; package soap's
// codec_*_test.go do the same for its types. A change here must keep both passing.
//
// This package must not know SOAP or the domain: it knows XML and encoding/xml's behaviour, and
// nothing of envelopes, operations, flights or trips (package soap maps its types onto it). It
// imports only the standard library, and never does I/O: documents come in and go out as bytes.
package xmlcodec
