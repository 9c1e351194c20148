#!/usr/bin/env bash
# The base image CI builds the Containerfile on (`--build-arg NODE_IMAGE=…`), since no image
# registry is reachable here: Debian bookworm's minimal root file system from Debian's mirror
# (debootstrap), and this machine's own Node.js 20 (Debian's nodejs is 18, older than the
# engines of package.json). Kept in podman's store: a second run with the image there does nothing.
#
#   scripts/container/base-image.sh [image]     default: localhost/launchpad-node-base:20-bookworm
#
# DEBIAN_MIRROR overrides the mirror (default: the one apt uses); NODE_DEB=<nodejs_*.deb> takes Node
# from that package instead of from this machine's.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
image=${1:-localhost/launchpad-node-base:20-bookworm}

if podman image exists "$image"; then
  echo "base image $image: already there"
  exit 0
fi

need() {
  command -v "$1" >/dev/null 2>&1 || { echo "base-image: needs $1 (apt-get install $2)" >&2; exit 1; }
}
need podman podman
need debootstrap debootstrap

# apt's own mirror: the one this machine is allowed to reach.
mirror=${DEBIAN_MIRROR:-}
if [ -z "$mirror" ]; then
  mirror=$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
fi
if [ -z "$mirror" ]; then
  mirror=$(awk '$1 == "deb" && $3 ~ /^bookworm$/ {print $2; exit}' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true)
fi
mirror=${mirror:-http://deb.debian.org/debian}

cache=$root/data/container/debs
mkdir -p "$cache"
work=$(mktemp -d /var/tmp/launchpad-base.XXXXXX)
trap 'rm -rf "$work"' EXIT
rootfs=$work/rootfs

echo "base image $image: debootstrap bookworm from $mirror"
# ca-certificates: SMTP over TLS and the OpenStack driver's HTTPS need the usual roots.
debootstrap --variant=minbase --include=ca-certificates --cache-dir="$cache" \
  bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
  { tail -n 30 "$work/debootstrap.log" >&2; exit 1; }

# Node.js 20.19 or newer with its npm (the build stage runs npm ci).
if [ -n "${NODE_DEB:-}" ]; then
  dpkg-deb -x "$NODE_DEB" "$rootfs"
else
  major_minor=$(node -p 'process.versions.node.split(".").slice(0, 2).join(".")')
  node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)' ||
    { echo "base-image: this machine's node is $major_minor, older than 20.19; give NODE_DEB=" >&2; exit 1; }
  node_bin=$(command -v node)
  npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
  install -D -m 0755 "$(readlink -f "$node_bin")" "$rootfs/usr/bin/node"
  mkdir -p "$rootfs/usr/lib/node_modules"
  cp -a "$npm_dir" "$rootfs/usr/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/bin/npx"
fi
chroot "$rootfs" /usr/bin/node -e 'console.log(`node ${process.version} in the base image`)'

# What a slim image leaves out: documentation, translations, apt's lists and downloads.
rm -rf "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* \
  "$rootfs"/usr/share/locale/* "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin \
  "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/log/*.log "$rootfs"/tmp/*

tar --numeric-owner -C "$rootfs" -cf "$work/rootfs.tar" .
podman import --quiet \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' \
  --message "Debian bookworm minbase and Node.js from $(hostname)" \
  "$work/rootfs.tar" "$image" >/dev/null
echo "base image $image: made ($(du -sh "$work/rootfs.tar" | cut -f1))"
