#!/usr/bin/env bash
# Formats the Swift sources with the toolchain's swift-format (settings in .swift-format), then lints them as CI does.
set -euo pipefail
cd "$(dirname "$0")/.."
swift format format --in-place --recursive --parallel Package.swift Sources Tests Fuzz/Entry Benchmarks
swift format lint --strict --recursive --parallel Package.swift Sources Tests Fuzz/Entry Benchmarks
