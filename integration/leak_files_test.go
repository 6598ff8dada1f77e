package integration

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// openFiles counts a process's open files by what they are (/proc/PID/fd): a path, a TCP socket
// by its ports (socketsOf), or a kind (pipe, anon_inode:…) for the others.
func openFiles(pid int) map[string]int {
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	entries, _ := os.ReadDir(dir)
	var targets []string
	own := map[string]bool{} // the inodes of its sockets
	for _, e := range entries {
		target, err := os.Readlink(filepath.Join(dir, e.Name()))
		if err != nil {
			continue // closed since the listing
		}
		targets = append(targets, target)
		if inode, ok := strings.CutPrefix(target, "socket:["); ok {
			own[strings.TrimSuffix(inode, "]")] = true
		}
	}
	sockets := socketsOf(pid, own)
	out := map[string]int{}
	for _, target := range targets {
		if kind, inode, ok := strings.Cut(target, ":["); ok {
			target = kind
			if name, tcp := sockets[strings.TrimSuffix(inode, "]")]; tcp {
				target = name
			}
		}
		out[target]++
	}
	return out
}

// socketsOf names the TCP sockets of own (a process's socket inodes) from /proc/PID/net/tcp and
// tcp6, which list every socket of its network namespace: "listening on :P", "accepted on :P" (a
// connection to one of its own listening ports), or "tcp to :P" (one it opened): the port names
// the peer, a machine's SOAP, peer or client port.
func socketsOf(pid int, own map[string]bool) map[string]string {
	type socket struct{ local, remote, state, inode string }
	var all []socket
	listening := map[string]bool{}
	for _, table := range []string{"tcp", "tcp6"} {
		data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/net/%s", pid, table))
		for _, line := range strings.Split(string(data), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) < 10 {
				continue
			}
			port := func(addr string) string {
				_, hex, _ := strings.Cut(addr, ":")
				n, _ := strconv.ParseUint(hex, 16, 16)
				return strconv.FormatUint(n, 10)
			}
			sock := socket{local: port(f[1]), remote: port(f[2]), state: f[3], inode: f[9]}
			if !own[sock.inode] {
				continue
			}
			if sock.state == "0A" { // LISTEN
				listening[sock.local] = true
			}
			all = append(all, sock)
		}
	}
	out := map[string]string{}
	for _, sock := range all {
		switch {
		case sock.state == "0A":
			out[sock.inode] = "listening on :" + sock.local
		case listening[sock.local]:
			out[sock.inode] = "accepted on :" + sock.local
		default:
			out[sock.inode] = "tcp to :" + sock.remote
		}
	}
	return out
}
