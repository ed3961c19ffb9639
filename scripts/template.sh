#!/usr/bin/env bash
# template.sh builds the Dataflow Flex Template of the pipeline: the
# linux/amd64 release binary, the launcher image of deploy/dataflow/Dockerfile
# (pushed to Artifact Registry) and the template spec in GCS, declared by
# deploy/dataflow/metadata.json.
#
#   PROJECT=my-project REGION=europe-west1 BUCKET=my-bucket VERSION=v0.2.0 scripts/template.sh
#
# Environment:
#   PROJECT, REGION, BUCKET, VERSION   required
#   REPOSITORY  Artifact Registry Docker repository (default: neardup)
#   DRY_RUN=1   print the commands instead of running docker and gcloud
#
# Writes gs://BUCKET/templates/neardup-VERSION.json, the path that
# deploy/dataflow/scheduler/launch-request.json launches. Needs docker and
# gcloud, authenticated for the project.
set -euo pipefail
cd "$(dirname "$0")/.."

: "${PROJECT:?set PROJECT}" "${REGION:?set REGION}" "${BUCKET:?set BUCKET}" "${VERSION:?set VERSION}"
REPOSITORY=${REPOSITORY:-neardup}
IMAGE=$REGION-docker.pkg.dev/$PROJECT/$REPOSITORY/neardup-template:$VERSION
SPEC=gs://$BUCKET/templates/neardup-$VERSION.json

run() {
  if [[ ${DRY_RUN:-} == 1 ]]; then
    printf '%q ' "$@"
    printf '\n'
  else
    "$@"
  fi
}

run env VERSION="$VERSION" TARGETS=linux/amd64 scripts/release.sh
run docker build -f deploy/dataflow/Dockerfile --build-arg "VERSION=$VERSION" -t "$IMAGE" .
run docker push "$IMAGE"
run gcloud dataflow flex-template build "$SPEC" \
  --project="$PROJECT" \
  --image="$IMAGE" \
  --sdk-language=GO \
  --metadata-file=deploy/dataflow/metadata.json
echo "template: $SPEC"
