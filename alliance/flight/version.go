package flight

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"
)

// versionBytes is how much of the SHA-256 a Version keeps: 128 bits are plenty to tell versions
// of one seller apart, and half the hex is easier to read in logs and etcd.
const versionBytes = 16

// versionOf hashes the seller code and the canonical text of each flight, in the given order
// (which callers keep canonical). Fields are validated to contain no commas or newlines, so the
// encoding is unambiguous without quoting.
func versionOf(code string, flights []Flight) string {
	h := sha256.New()
	buf := make([]byte, 0, 128)
	buf = append(append(buf, code...), '\n')
	h.Write(buf)
	for _, f := range flights {
		buf = buf[:0]
		buf = append(buf, f.Number...)
		buf = append(buf, ',')
		buf = append(buf, f.Seller...)
		buf = append(buf, ',')
		buf = append(buf, f.Src...)
		buf = append(buf, ',')
		buf = append(buf, f.Dst...)
		buf = append(buf, ',')
		buf = f.Departure.UTC().AppendFormat(buf, time.RFC3339Nano)
		buf = append(buf, ',')
		buf = f.Arrival.UTC().AppendFormat(buf, time.RFC3339Nano)
		buf = append(buf, ',')
		buf = f.Price.AppendTo(buf)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(f.Seats), 10)
		buf = append(buf, '\n')
		h.Write(buf)
	}
	sum := h.Sum(nil)
	return hex.EncodeToString(sum[:versionBytes])
}
