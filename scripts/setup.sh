#!/usr/bin/env bash
# Installs what the build needs on Debian 12 when it is missing: LLVM/MLIR 22
# (melior links them statically), lit and FileCheck. Needs root or sudo.
set -euo pipefail

packages=(llvm-22-dev libmlir-22-dev mlir-22-tools libpolly-22-dev llvm-22-tools
  libclang-22-dev libzstd-dev libz3-dev libxml2-dev zlib1g-dev)

missing=()
for p in "${packages[@]}"; do
  if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
fi

for tool in /usr/lib/llvm-22/bin/lit /usr/lib/llvm-22/bin/FileCheck /usr/lib/llvm-22/bin/llvm-config; do
  [ -x "$tool" ] || { echo "setup: $tool is missing after installation" >&2; exit 1; }
done
