#!/usr/bin/env bash
# Type-checks RustStoreDelivery.cs against the small Oxide/Rust/Newtonsoft stubs in stubs/
# with Debian's mono C# compiler (apt-get install mono-mcs), then runs the plugin's signing
# code on a fixed vector (check/SigningVector.cs) and its console-reply check on the replies
# Rust and Oxide give (check/CommandReplies.cs). The output is thrown away:
# on a game server Oxide compiles the .cs file itself.
# Exit 0 with a notice when mcs is missing, unless REQUIRE_MCS=1.
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v mcs >/dev/null 2>&1; then
  if [ "${REQUIRE_MCS:-0}" = "1" ]; then
    echo "plugins/oxide: mcs not found (apt-get install mono-mcs)" >&2
    exit 1
  fi
  echo "plugins/oxide: mcs not found, skipping the plugin compile check (apt-get install mono-mcs)"
  exit 0
fi

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
mcs -target:library -warnaserror+ -nowarn:0169,0414,0649 \
  -r:System.dll -r:System.Core.dll \
  -out:"$out/RustStoreDelivery.dll" \
  stubs/*.cs RustStoreDelivery.cs
echo "plugins/oxide: RustStoreDelivery.cs compiles against the Oxide stubs ($(mcs --version))"

# The plugin's signing code against the site's values (same vector as tests/game-keys.test.ts).
if command -v mono >/dev/null 2>&1; then
  mcs -warnaserror+ -nowarn:0169,0414,0649 -r:System.dll -r:System.Core.dll \
    -out:"$out/SigningVector.exe" stubs/*.cs RustStoreDelivery.cs check/SigningVector.cs
  mono "$out/SigningVector.exe"
  mcs -warnaserror+ -nowarn:0169,0414,0649 -r:System.dll -r:System.Core.dll \
    -out:"$out/CommandReplies.exe" stubs/*.cs RustStoreDelivery.cs check/CommandReplies.cs
  mono "$out/CommandReplies.exe"
fi
