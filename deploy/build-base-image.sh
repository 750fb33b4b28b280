#!/bin/sh
# Builds the offline base image for deploy/Dockerfile (docs/operations.md "Containers",
# decision 044): Debian bookworm from the apt mirror (debootstrap, no registry pull), the build
# tools better-sqlite3 compiles with, and the host's own Node.js 20.19+ and npm copied in.
#   sudo deploy/build-base-image.sh [image-name] [mirror]
#   (BASE_ROOTFS=<dir> reuses a debootstrap tree made before instead of running debootstrap)
#   podman build --network host --build-arg BASE=localhost/pixelfleet-base:bookworm \
#     -f deploy/Dockerfile -t pixelfleet .
# Needs root, debootstrap, podman, and a host Node.js >= 20.19 built for glibc <= bookworm's 2.36
# (the NodeSource .deb is).
set -eu

IMAGE=${1:-pixelfleet-base:bookworm}
MIRROR=${2:-${DEBIAN_MIRROR:-}}
if [ -z "$MIRROR" ]; then
  # first URIs: / deb line of the host's apt sources
  MIRROR=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
    sed -n -e 's/^URIs: *\([^ ]*\/debian\)$/\1/p' -e 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\/debian\) .*/\2/p' | head -n 1)
fi
MIRROR=${MIRROR:-http://deb.debian.org/debian}

NODE=$(command -v node)
NODE=$(readlink -f "$NODE")
NODE_PREFIX=$(dirname "$(dirname "$NODE")")
NPM_DIR=$NODE_PREFIX/lib/node_modules/npm
"$NODE" -e 'const [a, b] = process.versions.node.split(".").map(Number); if (a < 20 || (a === 20 && b < 19)) { console.error(`host Node.js ${process.version} is older than 20.19`); process.exit(1) }'
[ -f "$NPM_DIR/bin/npm-cli.js" ] || { echo "no npm at $NPM_DIR" >&2; exit 1; }
[ -f "$NODE_PREFIX/include/node/node.h" ] || { echo "no Node.js headers at $NODE_PREFIX/include/node (better-sqlite3 builds against them)" >&2; exit 1; }

if [ -n "${BASE_ROOTFS:-}" ]; then
  # reuse a finished `debootstrap --variant=minbase bookworm` tree (it is modified in place)
  ROOT=$BASE_ROOTFS
  [ -f "$ROOT/etc/debian_version" ] || { echo "$ROOT is no debootstrap tree" >&2; exit 1; }
else
  WORK=$(mktemp -d /var/tmp/pixelfleet-base.XXXXXX)
  trap 'rm -rf "$WORK"' EXIT
  ROOT=$WORK/rootfs
  echo "debootstrap bookworm from $MIRROR"
  timeout 900 debootstrap --variant=minbase bookworm "$ROOT" "$MIRROR"
fi

# better-sqlite3 has no reachable prebuilt binary: node-gyp compiles it (python3, make, g++)
chroot "$ROOT" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
  python3 make g++ ca-certificates
chroot "$ROOT" apt-get clean
rm -rf "$ROOT"/var/lib/apt/lists/*

# Node.js and npm from the host, at /usr like the NodeSource package
install -m 0755 "$NODE" "$ROOT/usr/bin/node"
mkdir -p "$ROOT/usr/lib/node_modules" "$ROOT/usr/include" "$ROOT/usr/etc"
cp -a "$NPM_DIR" "$ROOT/usr/lib/node_modules/npm"
cp -a "$NODE_PREFIX/include/node" "$ROOT/usr/include/node"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$ROOT/usr/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$ROOT/usr/bin/npx"
# node-gyp uses these headers instead of downloading them from nodejs.org (unreachable);
# the host's CA bundle, in case the registry is reached through a proxy with its own CA
cp /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/ssl/certs/ca-certificates.crt"
printf 'nodedir=/usr\ncafile=/etc/ssl/certs/ca-certificates.crt\nupdate-notifier=false\n' > "$ROOT/usr/etc/npmrc"

# the Dockerfile runs as `node` (uid 1000), as in the official node image
getent_node=$(chroot "$ROOT" getent passwd node || true)
[ -n "$getent_node" ] || chroot "$ROOT" groupadd --gid 1000 node
[ -n "$getent_node" ] || chroot "$ROOT" useradd --uid 1000 --gid node --shell /bin/sh --create-home node
chroot "$ROOT" node --version
chroot "$ROOT" npm --version

tar --numeric-owner -C "$ROOT" -c . | timeout 600 podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' - "$IMAGE"
echo "built $IMAGE"
