#!/usr/bin/env bash
# Builds the idflow binary the README installs: release, the Swift runtime linked in statically
# (--static-swift-stdlib: no libswiftCore/libFoundation to find and relocate at start-up), symbols stripped.
# Prints the binary's path on stdout, so `install -m 0755 "$(scripts/build-release.sh)" /usr/local/bin/` works.
# Only the system's own libraries (libc, zlib, libstdc++) stay dynamic; libcurl (and the OpenSSL it uses) is opened
# with dlopen at the first request (Sources/CCurl), so it must be installed to send one but is not linked.
set -euo pipefail
cd "$(dirname "$0")/.."

# On Linux the link needs zlib's development file (the unversioned libz.so: QR code images); without it the final link
# fails with screens of undefined symbols, so say what to install before building. libcurl's and OpenSSL's headers
# are checked by Package.swift. IDFLOW_LIB_DIRS overrides where to look (tests use it).
if [ "$(uname -s)" = Linux ]; then
    missing=()
    for library in libz.so; do
        found=""
        for dir in ${IDFLOW_LIB_DIRS:-/usr/lib/*-linux-gnu /usr/lib64 /usr/lib /usr/local/lib}; do
            [ -e "$dir/$library" ] && found=$dir && break
        done
        [ -n "$found" ] || missing+=("$library")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "build-release.sh: development files are missing (the link needs ${missing[*]}); on Debian/Ubuntu: apt-get install -y zlib1g-dev" >&2
        exit 1
    fi
fi
flags=(-c release --product idflow)
case "$(uname -s)" in
    # Darwin links the OS's Swift runtime; nothing to embed. --no-export-dynamic: the Swift driver exports all
    # 47,000 of the binary's symbols, so every symbol libcurl and its libraries look up at load time was first
    # searched for among them (and dladdr scanned them all); none is looked up by name. About 8% of start-up.
    # lld with packed relative relocations (DT_RELR): the binary's 144,000 relocations were a 3.4 MB table the
    # loader read at every start; packed, they are 29 KB, and a command starts 0.8 ms sooner (docs/performance.md).
    # Such a binary needs glibc 2.36 where it runs, so this is done only when the build machine's glibc has it;
    # IDFLOW_PORTABLE=1 leaves it out, for a binary to copy to older systems.
    Linux)
        flags+=(--static-swift-stdlib -Xlinker --no-export-dynamic)
        toolchain=$(dirname "$(readlink -f "$(command -v swift)")")
        relr=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{ split($2, v, "."); print (v[1] > 2 || (v[1] == 2 && v[2] >= 36)) ? 1 : 0 }')
        if [ -x "$toolchain/ld.lld" ] && [ "$relr" = 1 ] && [ -z "${IDFLOW_PORTABLE:-}" ]; then
            flags+=(-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)
        fi
        ;;
esac
swift build "${flags[@]}" >&2
bin_dir=$(swift build "${flags[@]}" --show-bin-path)
out="$bin_dir/idflow-release"
cp "$bin_dir/idflow" "$out"
strip "$out"
echo "$out"
