#!/bin/sh
# rootfs.sh DIR BIN: lays out the image's root filesystem in DIR from the static binaries in BIN —
# /usr/local/bin, a passwd and group naming the user 65532 (flightalliance), and
# /var/lib/flightalliance for it (the Dockerfile gives it to the user), where the machine's volume mounts. Every file gets the same
# time (SOURCE_DATE_EPOCH), so the same source gives the same layer.
set -eu
dir=$1 bin=$2
rm -rf "$dir"
# The machine's files: a volume mounts at /var/lib/flightalliance (whose root Docker leaves to
# root) and starts with this content; the etcd member is in machine/etcd, so that a member the
# others removed can move its data aside beside it, in machine/ (its user's).
mkdir -p "$dir/usr/local/bin" "$dir/etc" "$dir/var/lib/flightalliance/machine" "$dir/tmp"
chmod 0700 "$dir/var/lib/flightalliance/machine"
for b in airline search flights alliancectl; do
	install -m 0755 "$bin/$b" "$dir/usr/local/bin/$b"
done
printf 'root:x:0:0:root:/:/sbin/nologin\nflightalliance:x:65532:65532:flightalliance:/var/lib/flightalliance:/sbin/nologin\n' >"$dir/etc/passwd"
printf 'root:x:0:\nflightalliance:x:65532:\n' >"$dir/etc/group"
chmod 1777 "$dir/tmp"
find "$dir" -exec touch -h -d "@${SOURCE_DATE_EPOCH:-0}" {} +
