#!/usr/bin/env bash
# template.sh builds the Dataflow Flex Template of the pipeline: the
# linux/amd64 release binary, the template image (built by gcloud on Cloud
# Build and pushed to Artifact Registry: no local Docker) and the template
# spec in GCS, declared by deploy/dataflow/metadata.json.
#
#   PROJECT=my-project REGION=europe-west1 BUCKET=my-bucket VERSION=v0.2.0 scripts/template.sh
#
# Environment:
#   PROJECT, REGION, BUCKET, VERSION   required
#   REPOSITORY  Artifact Registry Docker repository (default: neardup)
#   BASE_IMAGE  the Go launcher base image (default: the FROM line of
#               deploy/dataflow/Dockerfile, where it is pinned)
#   DRY_RUN=1   print the commands instead of running them
#
# Writes gs://BUCKET/templates/neardup-VERSION.json, the path that
# deploy/dataflow/scheduler/workflow.yaml launches. Needs gcloud,
# authenticated for the project, with the Cloud Build and Artifact Registry
# APIs enabled.
set -euo pipefail
cd "$(dirname "$0")/.."

: "${PROJECT:?set PROJECT}" "${REGION:?set REGION}" "${BUCKET:?set BUCKET}" "${VERSION:?set VERSION}"
REPOSITORY=${REPOSITORY:-neardup}
IMAGE=$REGION-docker.pkg.dev/$PROJECT/$REPOSITORY/neardup-template:$VERSION
SPEC=gs://$BUCKET/templates/neardup-$VERSION.json
BINARY=sentences-$VERSION-linux-amd64
if [[ -z ${BASE_IMAGE:-} ]]; then
  BASE_IMAGE=$(awk 'toupper($1) == "FROM" { print $2; exit }' deploy/dataflow/Dockerfile)
fi
if [[ -z $BASE_IMAGE || $BASE_IMAGE != *:* || $BASE_IMAGE == *:latest ]]; then
  echo "template.sh: base image '$BASE_IMAGE' is not pinned (see deploy/dataflow/Dockerfile)" >&2
  exit 2
fi

run() {
  if [[ ${DRY_RUN:-} == 1 ]]; then
    printf '%q ' "$@"
    printf '\n'
  else
    "$@"
  fi
}

run env VERSION="$VERSION" TARGETS=linux/amd64 scripts/release.sh
# Fail now, not half-way through a Cloud Build, if the pinned tag is gone.
run gcloud container images describe "$BASE_IMAGE" --format='value(image_summary.fully_qualified_digest)'
# gcloud copies the binary to /template/ in the image and sets
# FLEX_TEMPLATE_GO_BINARY=/template/NAME from --env's NAME; the binary, seeing
# that variable, is also the workers' binary.
run gcloud dataflow flex-template build "$SPEC" \
  --project="$PROJECT" \
  --image-gcr-path="$IMAGE" \
  --sdk-language=GO \
  --flex-template-base-image="$BASE_IMAGE" \
  --go-binary-path="dist/$BINARY" \
  --env="FLEX_TEMPLATE_GO_BINARY=$BINARY" \
  --metadata-file=deploy/dataflow/metadata.json
echo "template: $SPEC (image $IMAGE on $BASE_IMAGE)"
