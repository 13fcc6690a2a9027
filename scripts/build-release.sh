#!/usr/bin/env bash
# Builds the idflow binary the README installs: release, the Swift runtime linked in statically
# (--static-swift-stdlib: no libswiftCore/libFoundation to find and relocate at start-up), symbols stripped.
# Prints the binary's path on stdout, so `install -m 0755 "$(scripts/build-release.sh)" /usr/local/bin/` works.
# Only the system's own libraries (libc, libcurl, OpenSSL, …) stay dynamic.
set -euo pipefail
cd "$(dirname "$0")/.."

# On Linux the static Swift runtime's FoundationNetworking and idflow's own transport link libcurl, and the
# transport links OpenSSL (to read its verdict on a server certificate); without their development files (the
# unversioned libcurl.so and libssl.so) the final link fails with screens of undefined symbols, so say what to
# install before building. IDFLOW_LIB_DIRS overrides where to look (tests use it).
if [ "$(uname -s)" = Linux ]; then
    missing=()
    for library in libcurl.so libssl.so libz.so; do
        found=""
        for dir in ${IDFLOW_LIB_DIRS:-/usr/lib/*-linux-gnu /usr/lib64 /usr/lib /usr/local/lib}; do
            [ -e "$dir/$library" ] && found=$dir && break
        done
        [ -n "$found" ] || missing+=("$library")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "build-release.sh: development files are missing (the link needs ${missing[*]}); on Debian/Ubuntu: apt-get install -y libcurl4-openssl-dev libssl-dev zlib1g-dev" >&2
        exit 1
    fi
fi
flags=(-c release --product idflow)
case "$(uname -s)" in
    # Darwin links the OS's Swift runtime; nothing to embed. --no-export-dynamic: the Swift driver exports all
    # 47,000 of the binary's symbols, so every symbol libcurl and its libraries look up at load time was first
    # searched for among them (and dladdr scanned them all); none is looked up by name. About 8% of start-up.
    Linux) flags+=(--static-swift-stdlib -Xlinker --no-export-dynamic) ;;
esac
swift build "${flags[@]}" >&2
bin_dir=$(swift build "${flags[@]}" --show-bin-path)
out="$bin_dir/idflow-release"
cp "$bin_dir/idflow" "$out"
strip "$out"
echo "$out"
