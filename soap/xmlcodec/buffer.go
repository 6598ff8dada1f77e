package xmlcodec

import "sync"

// buffers recycles the buffers documents are written into and read into; buffers over maxPooled
// are left to the garbage collector rather than kept for the next document.
var buffers sync.Pool

const maxPooled = 8 << 20

// GetBuffer returns an empty buffer from the pool, or a new one of 64 KiB.
func GetBuffer() *[]byte {
	if p, ok := buffers.Get().(*[]byte); ok {
		*p = (*p)[:0]
		return p
	}
	b := make([]byte, 0, 64<<10)
	return &b
}

// PutBuffer returns p to the pool. Nothing may point into it afterwards.
func PutBuffer(p *[]byte) {
	if cap(*p) <= maxPooled {
		buffers.Put(p)
	}
}
