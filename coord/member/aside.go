package member

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// checkAsideWritable refuses a data dir whose parent exists but this process cannot write in:
// a member the others removed moves its old data aside there (moveAside) before it joins again,
// and could not — found at start, not after a partition. A parent that does not exist yet is
// made with the data dir, and so is writable.
func checkAsideWritable(dataDir string) error {
	parent := filepath.Dir(filepath.Clean(dataDir))
	if _, err := os.Stat(parent); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err := syscall.Access(parent, 0x2|0x1); err != nil { // W_OK | X_OK
		return fmt.Errorf("its parent %s is not writable by this process (%v): a member removed by the others moves its old data aside there before it rejoins", parent, err)
	}
	return nil
}
