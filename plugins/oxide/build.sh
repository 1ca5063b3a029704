#!/usr/bin/env bash
# Compiles RustStoreDelivery.cs with Debian's mono C# compiler against the working stand-ins of
# Oxide and Rust in stubs/ and Debian's Newtonsoft.Json (the library Oxide bundles), then runs the
# plugin's signing code on a fixed vector (check/SigningVector.cs). With `--harness DIR` it also
# builds the harness (harness/Main.cs: the real plugin in a small game world, driven by
# tests/plugin/*.test.ts) as DIR/harness.exe. On a game server Oxide compiles the .cs file itself.
# Exit 0 with a notice when mcs is missing, unless REQUIRE_MCS=1.
set -euo pipefail
cd "$(dirname "$0")"

harness_dir=""
if [ "${1:-}" = "--harness" ]; then harness_dir="$(mkdir -p "$2" && cd "$2" && pwd)"; fi

if ! command -v mcs >/dev/null 2>&1 || ! command -v mono >/dev/null 2>&1; then
  if [ "${REQUIRE_MCS:-0}" = "1" ]; then
    echo "plugins/oxide: mono not found (apt-get install mono-mcs mono-runtime libnewtonsoft-json-cil-dev)" >&2
    exit 1
  fi
  echo "plugins/oxide: mono not found, skipping the plugin checks (apt-get install mono-mcs mono-runtime libnewtonsoft-json-cil-dev)"
  exit 0
fi

newtonsoft="$(ls /usr/lib/mono/gac/Newtonsoft.Json/*/Newtonsoft.Json.dll 2>/dev/null | sort | tail -n 1)"
if [ -z "$newtonsoft" ]; then
  echo "plugins/oxide: Newtonsoft.Json not found (apt-get install libnewtonsoft-json-cil-dev)" >&2
  exit 1
fi

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
flags=(-warnaserror+ -nowarn:0169,0414,0649 -r:System.dll -r:System.Core.dll "-r:$newtonsoft")

mcs -target:library "${flags[@]}" -out:"$out/RustStoreDelivery.dll" stubs/*.cs RustStoreDelivery.cs
echo "plugins/oxide: RustStoreDelivery.cs compiles against the Oxide stand-ins ($(mcs --version))"

# The plugin's signing code against the site's values (same vector as tests/game-keys.test.ts).
mcs "${flags[@]}" -out:"$out/SigningVector.exe" stubs/*.cs RustStoreDelivery.cs check/SigningVector.cs
mono "$out/SigningVector.exe"

if [ -n "$harness_dir" ]; then
  mcs "${flags[@]}" -out:"$harness_dir/harness.exe" stubs/*.cs RustStoreDelivery.cs harness/Main.cs
  echo "plugins/oxide: harness built in $harness_dir/harness.exe"
fi
