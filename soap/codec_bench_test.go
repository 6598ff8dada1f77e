package soap

import (
	"bytes"
	"encoding/xml"
	"reflect"
	"regexp"
	"runtime"
	"testing"
	"time"
)

// The codec benchmarks: a 2,500-trip getTrips answer (about 950 KB of XML, the median answer of
// 5 machines × 1 seller × 10,000 flights a day) and a 1,000-flight seller page, encoded and
// decoded by encoding/xml and by the fast codec. Run them with
//
//	go test -run '^$' -bench 'Codec' -benchmem ./soap/
//
// Each "fast" sub-benchmark also measures its encoding/xml counterpart once and reports the
// ratios: speedup (encoding/xml's ns/op over the codec's) and alloc-ratio (encoding/xml's
// allocations per op over the codec's). For decoding the counterpart is what the client did
// before: gosoap's envelope decode, then decodeResponse on the inner XML (slowDecode); the
// one-pass encoding/xml decode of the same envelope is reported as 1pass-speedup.

const benchTrips = 2500

func encodedTrips(b *testing.B) []byte {
	var buf bytes.Buffer
	if err := writeEnvelope(&buf, "getTripsResponse", manyTrips(benchTrips)); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

func benchPage() *SellerPage {
	return &SellerPage{Seller: "LY", Version: "v7", Flights: sampleFlights(1000), NextCursor: "1000"}
}

// onePass decodes a response envelope with encoding/xml in one pass, as a client without
// gosoap's inner-XML step would.
func onePass(raw []byte, v any) error {
	env := struct {
		XMLName xml.Name `xml:"Envelope"`
		Body    struct {
			Resp any `xml:",any"`
		} `xml:"Body"`
	}{}
	env.Body.Resp = v
	return xml.Unmarshal(raw, &env)
}

// measure times fn on its own (testing.Benchmark cannot run inside a benchmark): ns and
// allocations per call over at least half a second, after one warm-up call.
func measure(fn func()) (ns, allocs float64) {
	fn()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	began := time.Now()
	n := 0
	for ; n < 3 || time.Since(began) < 500*time.Millisecond; n++ {
		fn()
	}
	elapsed := time.Since(began)
	runtime.ReadMemStats(&after)
	return float64(elapsed.Nanoseconds()) / float64(n), float64(after.Mallocs-before.Mallocs) / float64(n)
}

// loop runs fn in b.Loop.
func loop(b *testing.B, size int, fn func()) {
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		fn()
	}
}

// loopWithRatios runs fn in b.Loop and reports the ratios to a baseline (ns and allocations
// per op of the encoding/xml counterpart).
func loopWithRatios(b *testing.B, size int, fn func(), baseNs, baseAllocs float64, prefix string) {
	b.SetBytes(int64(size))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		fn()
	}
	runtime.ReadMemStats(&after)
	ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	allocs := max(float64(after.Mallocs-before.Mallocs)/float64(b.N), 1)
	b.ReportMetric(baseNs/ns, prefix+"speedup")
	b.ReportMetric(baseAllocs/allocs, prefix+"alloc-ratio")
}

func BenchmarkCodecEncodeGetTrips(b *testing.B) {
	resp := manyTrips(benchTrips)
	size := len(encodedTrips(b))
	xmlEncode := func() {
		var buf bytes.Buffer
		if err := writeEnvelope(&buf, "getTripsResponse", resp); err != nil {
			b.Fatal(err)
		}
	}
	buf := make([]byte, 0, size)
	fastEncode := func() { buf, _ = appendResponseEnvelope(buf[:0], "getTripsResponse", resp) }
	b.Run("encoding-xml", func(b *testing.B) { loop(b, size, xmlEncode) })
	b.Run("fast", func(b *testing.B) {
		ns, allocs := measure(xmlEncode)
		loopWithRatios(b, size, fastEncode, ns, allocs, "")
	})
}

func BenchmarkCodecDecodeGetTrips(b *testing.B) {
	raw := encodedTrips(b)
	benchDecode(b, raw, "getTripsResponse", func() any { return new(GetTripsResponse) })
}

func BenchmarkCodecEncodeSellerPage(b *testing.B) {
	page := benchPage()
	var enc bytes.Buffer
	if err := writeEnvelope(&enc, "sendPrimarySellerResponse", page); err != nil {
		b.Fatal(err)
	}
	size := enc.Len()
	xmlEncode := func() {
		var buf bytes.Buffer
		if err := writeEnvelope(&buf, "sendPrimarySellerResponse", page); err != nil {
			b.Fatal(err)
		}
	}
	buf := make([]byte, 0, size)
	fastEncode := func() { buf, _ = appendResponseEnvelope(buf[:0], "sendPrimarySellerResponse", page) }
	b.Run("encoding-xml", func(b *testing.B) { loop(b, size, xmlEncode) })
	b.Run("fast", func(b *testing.B) {
		ns, allocs := measure(xmlEncode)
		loopWithRatios(b, size, fastEncode, ns, allocs, "")
	})
}

func BenchmarkCodecDecodeSellerPage(b *testing.B) {
	var enc bytes.Buffer
	if err := writeEnvelope(&enc, "sendPrimarySellerResponse", benchPage()); err != nil {
		b.Fatal(err)
	}
	benchDecode(b, enc.Bytes(), "sendPrimarySellerResponse", func() any { return new(SellerPage) })
}

func benchDecode(b *testing.B, raw []byte, want string, fresh func() any) {
	gosoapPath := func() {
		if err := slowDecode(raw, want, fresh()); err != nil {
			b.Fatal(err)
		}
	}
	xmlOnePass := func() {
		if err := onePass(raw, fresh()); err != nil {
			b.Fatal(err)
		}
	}
	checkOnePass(b, raw, want, fresh)
	fast := func() {
		if !fastDecode(raw, want, fresh()) {
			b.Fatal("the fast decoder refused the answer")
		}
	}
	// The same answer with a space in every start tag: the fast decoder reads it token by token,
	// as it read every answer before its plain first reading (codec_decode_plain.go).
	spaced := plainStartTag.ReplaceAll(raw, []byte("<$1 >"))
	general := func() {
		if !fastDecode(spaced, want, fresh()) {
			b.Fatal("the fast decoder refused the spaced answer")
		}
	}
	b.Run("gosoap-2pass", func(b *testing.B) { loop(b, len(raw), gosoapPath) })
	b.Run("fast-tokens", func(b *testing.B) { loop(b, len(spaced), general) })
	b.Run("encoding-xml-1pass", func(b *testing.B) { loop(b, len(raw), xmlOnePass) })
	b.Run("fast", func(b *testing.B) {
		ns1, _ := measure(xmlOnePass)
		ns2, allocs2 := measure(gosoapPath)
		loopWithRatios(b, len(raw), fast, ns2, allocs2, "")
		b.ReportMetric(ns1/(float64(b.Elapsed().Nanoseconds())/float64(b.N)), "1pass-speedup")
		ns3, _ := measure(general)
		b.ReportMetric(ns3/(float64(b.Elapsed().Nanoseconds())/float64(b.N)), "tokens-speedup")
	})
}

// plainStartTag is a start tag without prefix or attribute.
var plainStartTag = regexp.MustCompile(`<([A-Za-z]+)>`)

// checkOnePass makes sure the one-pass baseline decodes what the others decode.
func checkOnePass(b *testing.B, raw []byte, want string, fresh func() any) {
	one, two := fresh(), fresh()
	if err := onePass(raw, one); err != nil {
		b.Fatal(err)
	}
	if err := slowDecode(raw, want, two); err != nil {
		b.Fatal(err)
	}
	if !reflect.DeepEqual(one, two) {
		b.Fatal("the one-pass baseline decodes another value")
	}
}
