package search

import (
	"net/http"
	"strconv"
	"sync"

	"flightalliance/search/merge"
)

// answerBuffers keeps encoded answers' buffers for reuse: an answer of a few thousand trips is a
// megabyte, and allocating one per search is work for the garbage collector.
var answerBuffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledBuffer is the largest buffer kept for reuse; larger ones are left to the collector.
const maxPooledBuffer = 8 << 20

// writeAnswer writes a 200 search answer, as writeJSON would write merge.Merge's answer; keep, when
// not nil, is given the bytes written, and owns them from then on (they are not pooled).
func writeAnswer(w http.ResponseWriter, m *merge.Merged, keep func([]byte)) {
	bp := answerBuffers.Get().(*[]byte)
	b := (*bp)[:0]
	if hint := m.SizeHint(); cap(b) < hint || keep != nil {
		// A buffer of about the answer's size, allocated once rather than grown by doubling
		// (growing to a megabyte copies it about twice); one that will be kept is its own.
		answerBuffers.Put(bp)
		bp = new([]byte)
		b = make([]byte, 0, hint)
	}
	b = m.AppendJSON(b)
	b = append(b, '\n')
	writeJSONBytes(w, b)
	if keep != nil {
		keep(b)
		return
	}
	if cap(b) <= maxPooledBuffer {
		*bp = b
		answerBuffers.Put(bp)
	}
}

// writeJSONBytes answers 200 with an encoded answer.
func writeJSONBytes(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}
