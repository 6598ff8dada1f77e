package xmlcodec

import "encoding/binary"

// internCache shares the strings of a Scanner's recent documents: codes, airports, times and
// prices repeat across legs. It is direct-mapped: a slot holds the last string hashed to it.
type internCache [1 << internBits]string

// internBits: 4,096 slots (64 KiB a pooled decoder) hold a day's minutes, its prices and the
// airports with few collisions; 1,024 missed on a third of a holder's list
// (BenchmarkCodecDecodeSellerPage: 1,496 → 1,012 allocations).
const internBits = 12

func (c *internCache) get(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > 32 {
		return string(b)
	}
	// A hash of the length and of up to three 8-byte words: the first, the middle and the last.
	h := uint64(len(b))
	if len(b) >= 8 {
		h ^= binary.LittleEndian.Uint64(b) ^ binary.LittleEndian.Uint64(b[len(b)-8:])*0x9E3779B97F4A7C15
		if len(b) > 16 {
			h ^= binary.LittleEndian.Uint64(b[len(b)/2-4:]) * 0xC2B2AE3D27D4EB4F
		}
	} else {
		for _, x := range b {
			h = h<<8 | uint64(x)
		}
	}
	h *= 0x9E3779B97F4A7C15
	slot := &c[h>>(64-internBits)]
	if *slot != string(b) {
		*slot = string(b)
	}
	return *slot
}
