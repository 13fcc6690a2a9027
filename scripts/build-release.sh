#!/usr/bin/env bash
# Builds the idflow binary the README installs: release, the Swift runtime linked in statically
# (--static-swift-stdlib: no libswiftCore/libFoundation to find and relocate at start-up), symbols stripped.
# Prints the binary's path on stdout, so `install -m 0755 "$(scripts/build-release.sh)" /usr/local/bin/` works.
# Only the system's own libraries (libc, libcurl for FoundationNetworking, …) stay dynamic.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --product idflow)
case "$(uname -s)" in
    Linux) flags+=(--static-swift-stdlib) ;;  # Darwin links the OS's Swift runtime; nothing to embed.
esac
swift build "${flags[@]}" >&2
bin_dir=$(swift build "${flags[@]}" --show-bin-path)
out="$bin_dir/idflow-release"
cp "$bin_dir/idflow" "$out"
strip "$out"
echo "$out"
