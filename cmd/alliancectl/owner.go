package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
)

// errNoProcNet says the process owning a socket cannot be found on this system (no Linux /proc),
// so a partitioned machine's own outgoing connections cannot be told apart from others'.
var errNoProcNet = errors.New("no /proc/net/tcp: cannot tell which process owns a connection")

// connOwner returns the pid among pids that owns the client end of a loopback TCP connection,
// given the connection as its server sees it (local: our listening side, remote: the client),
// or 0 when none of them does. It reads the socket's inode from /proc/net/tcp and looks for it
// among each pid's open files, so it only works on Linux, for processes of this user or as root.
func connOwner(local, remote net.Addr, pids []int) (int, error) {
	if len(pids) == 0 {
		return 0, nil
	}
	l, lok := local.(*net.TCPAddr)
	r, rok := remote.(*net.TCPAddr)
	if !lok || !rok {
		return 0, fmt.Errorf("connection %v → %v is not TCP", remote, local)
	}
	inode, err := socketInode(procAddr(r), procAddr(l))
	if err != nil || inode == "" {
		return 0, err
	}
	want := "socket:[" + inode + "]"
	for _, pid := range pids {
		fds := fmt.Sprintf("/proc/%d/fd", pid)
		entries, err := os.ReadDir(fds)
		if err != nil {
			continue // exited meanwhile: it owns nothing
		}
		for _, e := range entries {
			if target, err := os.Readlink(fds + "/" + e.Name()); err == nil && target == want {
				return pid, nil
			}
		}
	}
	return 0, nil
}

// socketInode finds the inode of the socket whose local and remote addresses are as given (in
// /proc/net/tcp's notation); "" when there is none (it closed meanwhile).
func socketInode(local, remote string) (string, error) {
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(table)
		if err != nil {
			if table == "/proc/net/tcp" {
				return "", errNoProcNet
			}
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
			fields := strings.Fields(sc.Text())
			if len(fields) > 9 && strings.EqualFold(fields[1], local) && strings.EqualFold(fields[2], remote) {
				f.Close()
				return fields[9], nil
			}
		}
		f.Close()
	}
	return "", nil
}

// procAddr writes an address as /proc/net/tcp does: the IPv4 address as the host-order
// hexadecimal of its 32 bits in memory, then the port in hexadecimal (IPv6: four such words).
func procAddr(a *net.TCPAddr) string {
	port := strings.ToUpper(fmt.Sprintf("%04x", a.Port))
	if ip4 := a.IP.To4(); ip4 != nil {
		return fmt.Sprintf("%08X:%s", binary.NativeEndian.Uint32(ip4), port)
	}
	var b strings.Builder
	ip := a.IP.To16()
	for i := 0; i < 16; i += 4 {
		b.WriteString(fmt.Sprintf("%08X", binary.NativeEndian.Uint32(ip[i:i+4])))
	}
	return b.String() + ":" + port
}

// pidsOf returns the recorded pids of the named processes that still run their command line.
func pidsOf(s *State, names map[string]bool) []int {
	var out []int
	for _, p := range s.Procs {
		if names[p.Name] && inspect(p) != procGone {
			out = append(out, p.Pid)
		}
	}
	return out
}
