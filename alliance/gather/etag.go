package gather

import (
	"crypto/rand"
	"encoding/hex"
	"hash/fnv"
	"strconv"
	"strings"

	"flightalliance/soap"
)

// An answer's ETag names what it shows, so that a caller that keeps an answer (the search server)
// can ask again with IfNoneMatch and get NotModified, without trips, when nothing changed: the
// whole list is the same while the cache's generation is (every change of the alliance's data
// purges it, starting a new one), the seats left are the same while the seat counters' version
// is, and the page is the same for the same request. The incarnation, random per Search, keeps
// a machine restarted (or another machine) from ever matching an ETag it did not give. Only
// complete answers have one.
type etagger struct{ incarnation string }

func newEtagger() etagger {
	b := make([]byte, 8)
	rand.Read(b) // never fails (crypto/rand)
	return etagger{incarnation: hex.EncodeToString(b)}
}

// etag names the answer to req from the list of generation gen with the seats of version seats.
// It names the trips, not their form: an answer with shared legs (ShareLegs) and one without have
// the same ETag.
func (e etagger) etag(req *soap.GetTripsRequest, gen, seats uint64) string {
	h := fnv.New64a()
	for _, part := range []string{req.Src, req.Dst, req.Date, strings.Join(req.Sellers, ","),
		strconv.Itoa(req.MaxTrips), strconv.FormatBool(req.Nonstop), req.MaxPrice, req.Sort} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return e.incarnation + "-" + strconv.FormatUint(gen, 36) + "-" + strconv.FormatUint(seats, 36) + "-" +
		strconv.FormatUint(h.Sum64(), 36)
}
