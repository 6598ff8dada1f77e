package soap

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestCappedBody(t *testing.T) {
	for _, tc := range []struct {
		size, limit int
		tooLarge    bool
	}{
		{0, 0, false}, {10, 10, false}, {11, 10, true}, {9, 10, false}, {100000, 4096, true}, {4096, 4096, false},
	} {
		var failed error
		body := &cappedBody{r: io.NopCloser(strings.NewReader(strings.Repeat("x", tc.size))), left: int64(tc.limit), failed: &failed}
		got, err := io.ReadAll(body)
		if tc.tooLarge {
			if !errors.Is(err, ErrResponseTooLarge) || !errors.Is(failed, ErrResponseTooLarge) || len(got) > tc.limit {
				t.Errorf("%d bytes through a %d-byte cap: read %d, error %v, recorded %v", tc.size, tc.limit, len(got), err, failed)
			}
			continue
		}
		if err != nil || failed != nil || len(got) != tc.size {
			t.Errorf("%d bytes through a %d-byte cap: read %d, error %v, recorded %v", tc.size, tc.limit, len(got), err, failed)
		}
	}
}
