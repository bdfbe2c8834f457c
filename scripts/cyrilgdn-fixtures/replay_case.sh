#!/bin/bash
# Recreate the objects with setup.sql + apply.sql (no Terraform apply), seed the captured
# state, and check that `terraform plan` against the cyrilgdn provider is clean.
W=${FIXTURE_WORKDIR:?set FIXTURE_WORKDIR to the scratch directory}
CASE=$1
C=$W/cases/$CASE
R=$W/replay/$CASE
[ -f $C/out/terraform.tfstate ] || { echo "$CASE: no state (skipped)"; exit 0; }
rm -rf $R; mkdir -p $R; cd $R
export TF_CLI_CONFIG_FILE=$W/tf.rc TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1
export PGHOST=127.0.0.1 PGPORT=25433 PGUSER=postgres PGPASSWORD=pgfixpw PGDATABASE=postgres
P=10; [ -f $C/parallelism.txt ] && P=1
cp $C/main.tf $C/out/terraform.tfstate .
src=0; [ -f $C/setup.sql ] && { psql -X -q -v ON_ERROR_STOP=1 -f $C/setup.sql > setup.log 2>&1; src=$?; }
PGUSER=${APPLY_USER:-$PGUSER} PGPASSWORD=${APPLY_PASSWORD:-$PGPASSWORD} psql -X -q -v ON_ERROR_STOP=1 -f $C/out/apply.sql > replay.log 2>&1; rrc=$?
terraform init -input=false -no-color > init.log 2>&1
terraform plan -detailed-exitcode -input=false -no-color > plan.txt 2>&1; prc=$?
terraform destroy -auto-approve -input=false -no-color -parallelism=$P > destroy.log 2>&1; drc=$?
trc=0; [ -f $C/teardown.sql ] && { psql -X -q -v ON_ERROR_STOP=1 -f $C/teardown.sql > teardown.log 2>&1; trc=$?; }
if [ "$drc" != 0 ]; then terraform destroy -auto-approve -input=false -no-color -parallelism=1 > destroy2.log 2>&1; drc="$drc/retry:$?"; fi
echo "$CASE setup=$src replay_sql=$rrc plan=$prc destroy=$drc teardown=$trc"
