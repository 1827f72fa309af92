#!/usr/bin/env bash
# Copies schemas from local git checkouts into schemas/ (see schemas/README.md). Nothing is downloaded:
# clone the projects first.
#   scripts/refresh-schemas.sh argo-cd <argo-cd checkout> <tag> [--with-applicationset]
#   scripts/refresh-schemas.sh sarif <sarif-spec checkout>
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
usage() {
  sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
case "${1:-}" in
  argo-cd)
    [ $# -ge 3 ] || usage
    checkout=$2 tag=$3
    kinds=(application appproject)
    [ "${4:-}" = --with-applicationset ] && kinds+=(applicationset)
    mkdir -p "$here/schemas/argo-cd/$tag"
    for kind in "${kinds[@]}"; do
      git -C "$checkout" show "$tag:manifests/crds/$kind-crd.yaml" > "$here/schemas/argo-cd/$tag/$kind-crd.yaml"
      echo "wrote schemas/argo-cd/$tag/$kind-crd.yaml"
    done
    ;;
  sarif)
    [ $# -ge 2 ] || usage
    cp "$2/sarif-2.1/schema/sarif-schema-2.1.0.json" "$here/schemas/sarif/sarif-schema-2.1.0.json"
    echo "wrote schemas/sarif/sarif-schema-2.1.0.json"
    ;;
  *) usage ;;
esac
